# cmake -P cmake/check-backends.cmake: runs cmake/backends.cmake's
# functions on the CUDA, Metal and Vulkan branches with made-up inputs and
# checks what they produce, so a typo there fails on a machine without the
# SDKs (scripts/configure-check.sh, CI). Expected values: the architectures
# docs/build.md lists (upstream ggml's list, with machine code
# for 80 and 90 added), the link flags of upstream ggml's
# ggml-cuda/CMakeLists.txt (static linkage).
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/backends.cmake)

set(failures 0)
function(expect what got want)
    if(NOT "${got}" STREQUAL "${want}")
        message(SEND_ERROR "${what}:\n  got  '${got}'\n  want '${want}'")
        math(EXPR f "${failures} + 1")
        set(failures ${f} PARENT_SCOPE)
    else()
        message(STATUS "ok: ${what}")
    endif()
endfunction()

# CUDA architectures.
lmeval_cuda_architectures(a 12.4 ON)
if(CMAKE_VERSION VERSION_GREATER_EQUAL "3.24")
    expect("CUDA 12.4 with a GPU" "${a}" "native")
endif()
lmeval_cuda_architectures(a 12.4 OFF)
expect("CUDA 12.4 without a GPU" "${a}" "50-virtual;61-virtual;70-virtual;75-virtual;80-real;86-real;89-real;90")
lmeval_cuda_architectures(a 13.0 OFF)
expect("CUDA 13.0 without a GPU" "${a}" "75-virtual;80-real;86-real;89-real;90")
lmeval_cuda_architectures(a 11.7 OFF)
expect("CUDA 11.7 without a GPU" "${a}" "50-virtual;61-virtual;70-virtual;75-virtual;80-real;86-real")
lmeval_cuda_architectures(a 11.5 ON)
expect("CUDA 11.5 with a GPU (too old for native)" "${a}" "50-virtual;61-virtual;70-virtual;75-virtual;80-real;86-real")

# Link flags.
set(APPLE OFF)
set(LMEVAL_OPENMP_FLAGS -fopenmp)
lmeval_system_libs(s)
expect("CPU" "${s}" " -fopenmp -lstdc++ -lm -ldl -lpthread")

set(GGML_CUDA ON)
set(CUDAToolkit_LIBRARY_DIR /opt/cuda/lib64)
lmeval_system_libs(s)
expect("CUDA, shared runtime" "${s}"
    " -fopenmp -L/opt/cuda/lib64 -Wl,-rpath,/opt/cuda/lib64 -lcublas -lcublasLt -lcudart -lcuda -lstdc++ -lm -ldl -lpthread")
set(CUDA_cuda_driver_LIBRARY /opt/cuda/lib64/stubs/libcuda.so)
lmeval_system_libs(s)
expect("CUDA, shared runtime, the driver stub by path" "${s}"
    " -fopenmp -L/opt/cuda/lib64 -Wl,-rpath,/opt/cuda/lib64 -lcublas -lcublasLt -lcudart /opt/cuda/lib64/stubs/libcuda.so -lstdc++ -lm -ldl -lpthread")
lmeval_system_libs_without_backends(s)
expect("loadable backends: no CUDA libraries" "${s}" " -fopenmp -lstdc++ -lm -ldl -lpthread")
unset(CUDA_cuda_driver_LIBRARY)
set(GGML_STATIC ON)
lmeval_system_libs(s)
expect("CUDA, static runtime" "${s}"
    " -fopenmp -L/opt/cuda/lib64 -lcublas_static -lcublasLt_static -lcudart_static -lculibos -lrt -lcuda -lstdc++ -lm -ldl -lpthread")
set(GGML_CUDA_NO_VMM ON)
lmeval_system_libs(s)
expect("CUDA, static runtime, no VMM" "${s}"
    " -fopenmp -L/opt/cuda/lib64 -lcublas_static -lcublasLt_static -lcudart_static -lculibos -lrt -lstdc++ -lm -ldl -lpthread")
unset(GGML_CUDA)
unset(GGML_STATIC)
unset(GGML_CUDA_NO_VMM)

set(GGML_VULKAN ON)
set(Vulkan_LIBRARY /usr/lib/x86_64-linux-gnu/libvulkan.so)
lmeval_system_libs(s)
expect("Vulkan" "${s}" " -fopenmp /usr/lib/x86_64-linux-gnu/libvulkan.so -lstdc++ -lm -ldl -lpthread")
unset(GGML_VULKAN)

set(APPLE ON)
set(GGML_METAL ON)
set(LMEVAL_OPENMP_FLAGS "")
lmeval_system_libs(s)
expect("Metal" "${s}" " -framework Foundation -framework Metal -framework MetalKit -framework Accelerate -lc++ -lpthread")

if(failures GREATER 0)
    message(FATAL_ERROR "${failures} backend check(s) failed")
endif()
message(STATUS "backend checks passed")
