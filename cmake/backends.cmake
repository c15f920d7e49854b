# The GPU backends' choices that lmeval makes itself, as functions of their
# inputs so that scripts/configure-check.sh (cmake -P
# cmake/check-backends.cmake) can run them on machines without the SDKs.
#
# lmeval_cuda_architectures(<out> <toolkit version> <have gpu>): the
# CMAKE_CUDA_ARCHITECTURES default. "native" (the GPUs of the build
# machine) when one is present and the toolkit (>= 11.6) and CMake
# (>= 3.24) support it. Otherwise machine code for the GPUs people run
# evaluations on: 80 (A100, A30), 86 (RTX 30xx, A10, A40, A6000), 89 (RTX
# 40xx, L4, L40S; CUDA >= 11.8) and 90 (H100, H200, GH200; CUDA >= 11.8),
# with 90's PTX too, which the driver compiles for newer GPUs (Blackwell:
# B200, RTX 50xx) on first use; PTX for 75 (T4, RTX 20xx) and, before CUDA
# 13, 50/61/70 (CUDA 13 dropped them). Upstream ggml's list
# (75-virtual 80-virtual 86-real 89-real) has no machine code for the
# A100 or the H100: they would run PTX compiled at first start, for an
# older architecture than theirs. ggml's own default picks "native" even
# without a GPU, which fails on a build machine that has none.
function(lmeval_cuda_architectures out version have_gpu)
    if(have_gpu AND version VERSION_GREATER_EQUAL "11.6" AND CMAKE_VERSION VERSION_GREATER_EQUAL "3.24")
        set(${out} native PARENT_SCOPE)
        return()
    endif()
    set(archs "")
    if(version VERSION_LESS "13")
        list(APPEND archs 50-virtual 61-virtual 70-virtual)
    endif()
    list(APPEND archs 75-virtual 80-real 86-real)
    if(version VERSION_GREATER_EQUAL "11.8")
        list(APPEND archs 89-real 90)
    endif()
    set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# lmeval_system_libs(<out>): the system libraries the cgo link needs after
# the static archives, from the enabled backends (the one place link flags
# are produced; CMakeLists.txt writes them into cgo.env). Inputs: GGML_CUDA
# with CUDAToolkit_LIBRARY_DIR, GGML_STATIC (static cudart and cuBLAS,
# as ggml-cuda links them then) and GGML_CUDA_NO_VMM with
# CUDA_cuda_driver_LIBRARY (FindCUDAToolkit's libcuda: the driver's, or
# the toolkit's stub on a machine without a driver; -lcuda when unset),
# GGML_VULKAN with Vulkan_LIBRARY, GGML_METAL, APPLE, and
# LMEVAL_OPENMP_FLAGS.
function(lmeval_system_libs out)
    set(s "")
    if(LMEVAL_OPENMP_FLAGS)
        string(APPEND s " ${LMEVAL_OPENMP_FLAGS}")
    endif()
    if(GGML_CUDA)
        if(NOT CUDAToolkit_LIBRARY_DIR)
            message(FATAL_ERROR "lmeval_system_libs: GGML_CUDA without CUDAToolkit_LIBRARY_DIR")
        endif()
        string(APPEND s " -L${CUDAToolkit_LIBRARY_DIR}")
        if(GGML_STATIC)
            # cudart_static needs librt and libdl; cuBLAS static needs culibos.
            string(APPEND s " -lcublas_static -lcublasLt_static -lcudart_static -lculibos -lrt")
        else()
            string(APPEND s " -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcublas -lcublasLt -lcudart")
        endif()
        # The driver API, for virtual memory management (ggml-cuda links it
        # unless GGML_CUDA_NO_VMM). By path: on a build machine without a
        # driver it is the stub in lib64/stubs, which no -L names; the
        # binary records only its soname, libcuda.so.1, which the driver
        # provides where it runs.
        if(NOT GGML_CUDA_NO_VMM)
            if(CUDA_cuda_driver_LIBRARY)
                string(APPEND s " ${CUDA_cuda_driver_LIBRARY}")
            else()
                string(APPEND s " -lcuda")
            endif()
        endif()
    endif()
    if(GGML_VULKAN)
        if(NOT Vulkan_LIBRARY)
            message(FATAL_ERROR "lmeval_system_libs: GGML_VULKAN without Vulkan_LIBRARY")
        endif()
        string(APPEND s " ${Vulkan_LIBRARY}")
    endif()
    if(GGML_METAL)
        if(NOT APPLE)
            message(FATAL_ERROR "lmeval_system_libs: GGML_METAL needs macOS")
        endif()
        string(APPEND s " -framework Foundation -framework Metal -framework MetalKit")
    endif()
    if(APPLE)
        string(APPEND s " -framework Accelerate -lc++")
    else()
        string(APPEND s " -lstdc++ -lm -ldl")
    endif()
    string(APPEND s " -lpthread")
    set(${out} "${s}" PARENT_SCOPE)
endfunction()

# lmeval_system_libs_without_backends(<out>): lmeval_system_libs for a
# build with loadable backends (LMEVAL_BACKEND_DL), whose modules link
# their own GPU libraries: the binary needs only the rest.
function(lmeval_system_libs_without_backends out)
    set(GGML_CUDA OFF)
    set(GGML_VULKAN OFF)
    set(GGML_METAL OFF)
    lmeval_system_libs(s)
    set(${out} "${s}" PARENT_SCOPE)
endfunction()
