# A cache of built ggml-cuda archives, so that only the first CUDA build on
# a machine compiles ggml's CUDA kernels (most of a `make cuda`: see
# docs/build.md). An entry is keyed by everything that goes into the
# archive: the content of ggml's CUDA sources and the headers they include,
# the llama.cpp commit, the toolkit's version, the host compiler, the
# architectures, the build type and flags, and every GGML_CUDA_* option.
# Same key, same archive; any change, a new entry.
#
# LMEVAL_CUDA_CACHE (cache variable, or the environment variable of that
# name at the first configure): the directory, by default
# $XDG_CACHE_HOME/lmeval/ggml-cuda or ~/.cache/lmeval/ggml-cuda; "off"
# disables it. Entries are <dir>/<key>/{libggml-cuda.a,inputs.txt}; delete
# the directory to reclaim the space.
#
# Also run as a script (cmake -P) by the build to store a finished archive:
# -DLMEVAL_STORE_SRC=<archive> -DLMEVAL_STORE_ENTRY=<dir> -DLMEVAL_STORE_INPUTS=<file>.

if(CMAKE_SCRIPT_MODE_FILE)
    if(NOT EXISTS "${LMEVAL_STORE_ENTRY}/libggml-cuda.a")
        file(MAKE_DIRECTORY "${LMEVAL_STORE_ENTRY}")
        string(RANDOM LENGTH 8 _tmp)
        # Copy, then rename: a reader never sees half an archive.
        file(COPY_FILE "${LMEVAL_STORE_SRC}" "${LMEVAL_STORE_ENTRY}/.tmp-${_tmp}")
        file(COPY_FILE "${LMEVAL_STORE_INPUTS}" "${LMEVAL_STORE_ENTRY}/inputs.txt")
        file(RENAME "${LMEVAL_STORE_ENTRY}/.tmp-${_tmp}" "${LMEVAL_STORE_ENTRY}/libggml-cuda.a")
        message(STATUS "lmeval: kept ggml-cuda in ${LMEVAL_STORE_ENTRY}")
    endif()
    return()
endif()

if(NOT DEFINED LMEVAL_CUDA_CACHE)
    if(DEFINED ENV{LMEVAL_CUDA_CACHE})
        set(_dir "$ENV{LMEVAL_CUDA_CACHE}")
    elseif(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
        set(_dir "$ENV{XDG_CACHE_HOME}/lmeval/ggml-cuda")
    elseif(DEFINED ENV{HOME})
        set(_dir "$ENV{HOME}/.cache/lmeval/ggml-cuda")
    else()
        set(_dir off)
    endif()
    set(LMEVAL_CUDA_CACHE "${_dir}" CACHE STRING "directory of built ggml-cuda archives (cmake/cuda-cache.cmake), or off")
endif()

# lmeval_cuda_cache_entry(<out> <ggml source dir>): the entry directory for
# this configuration (which may not exist yet), or "" when the cache is off.
# Writes the key's inputs to ${CMAKE_BINARY_DIR}/ggml-cuda-inputs.txt.
function(lmeval_cuda_cache_entry out ggml_src)
    string(TOLOWER "${LMEVAL_CUDA_CACHE}" _off)
    if(_off STREQUAL "off" OR _off STREQUAL "")
        set(${out} "" PARENT_SCOPE)
        return()
    endif()
    # The sources: ggml-cuda's own (with its CMakeLists) and the headers
    # of ggml it includes, by content.
    file(GLOB_RECURSE _files RELATIVE "${ggml_src}" "${ggml_src}/src/ggml-cuda/*")
    file(GLOB _headers RELATIVE "${ggml_src}" "${ggml_src}/include/*.h" "${ggml_src}/src/*.h")
    list(APPEND _files ${_headers})
    list(SORT _files)
    set(_sources "")
    foreach(f ${_files})
        file(SHA256 "${ggml_src}/${f}" _h)
        string(APPEND _sources "${_h}  ${f}\n")
    endforeach()
    string(SHA256 _sources_hash "${_sources}")
    string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
    set(_inputs "lmeval ggml-cuda cache, format 1
llama.cpp commit: ${LMEVAL_LLAMA_COMMIT}
ggml-cuda sources and ggml headers (sha256 of their sha256sum list): ${_sources_hash}
CUDA toolkit: ${CUDAToolkit_VERSION}
host compiler: ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${CMAKE_CUDA_HOST_COMPILER}
processor: ${CMAKE_SYSTEM_NAME} ${CMAKE_SYSTEM_PROCESSOR}
architectures: ${CMAKE_CUDA_ARCHITECTURES}
build type: ${CMAKE_BUILD_TYPE}
CMAKE_CUDA_FLAGS: ${CMAKE_CUDA_FLAGS} | ${CMAKE_CUDA_FLAGS_${_bt}}
position independent: ${CMAKE_POSITION_INDEPENDENT_CODE}, shared: ${BUILD_SHARED_LIBS}
")
    foreach(o GGML_CUDA_FORCE_MMQ GGML_CUDA_FORCE_CUBLAS GGML_CUDA_NO_PEER_COPY GGML_CUDA_NO_VMM
            GGML_CUDA_FA_ALL_QUANTS GGML_CUDA_GRAPHS GGML_CUDA_FA GGML_CUDA_PEER_MAX_BATCH_SIZE
            GGML_CUDA_COMPRESSION_MODE GGML_CUDA_DEBUG GGML_FATAL_WARNINGS GGML_ALL_WARNINGS)
        string(APPEND _inputs "${o}: ${${o}}\n")
    endforeach()
    file(WRITE "${CMAKE_BINARY_DIR}/ggml-cuda-inputs.txt" "${_inputs}")
    string(SHA256 _key "${_inputs}")
    string(SUBSTRING "${_key}" 0 20 _key)
    set(${out} "${LMEVAL_CUDA_CACHE}/${_key}" PARENT_SCOPE)
endfunction()

# lmeval_cuda_cache_store(<target> <entry>): after <target> (ggml-cuda) is
# built, copy its archive into <entry> unless the entry is there already.
function(lmeval_cuda_cache_store target entry)
    add_custom_target(lmeval_cuda_cache_store ALL
        COMMAND ${CMAKE_COMMAND} -DLMEVAL_STORE_SRC=$<TARGET_FILE:${target}> -DLMEVAL_STORE_ENTRY=${entry}
                -DLMEVAL_STORE_INPUTS=${CMAKE_BINARY_DIR}/ggml-cuda-inputs.txt -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
        VERBATIM)
    add_dependencies(lmeval_cuda_cache_store ${target})
endfunction()
