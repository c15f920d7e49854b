# Vulkan: the pinned ggml tree (ollama's vendored copy) lacks
# ggml-vulkan/vulkan-shaders/feature-tests/. ggml-vulkan's CMakeLists decides
# which shader extensions glslc supports by compiling those files and
# looking for "extension not supported: <name>" in the errors; with the
# files missing no such message appears, every extension is taken as
# supported, and the cooperative-matrix shaders then fail to compile on an
# older glslc. So for a Vulkan build the ggml tree is copied into the build
# directory (the module cache stays read-only) with our feature tests
# (cmake/vulkan-feature-tests/, the same four one-line shaders as upstream)
# added where it has none.
#
# The same tests are also run here, with a stricter reading: a test must
# either compile or fail with "extension not supported"; any other error
# (a broken glslc) stops the configure with the glslc output, instead of a
# shader failure ten minutes into the build.
#
# In: _ggml_src (the ggml tree). Out: _ggml_src set to the copy.
find_package(Vulkan COMPONENTS glslc REQUIRED)
set(_copy ${CMAKE_BINARY_DIR}/ggml-src)
file(COPY ${_ggml_src}/ DESTINATION ${_copy}
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
    DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# The copy holds ollama's Go files too: a go.mod makes it a module of its
# own, so `go vet ./...` and `go test ./...` in the checkout skip it.
file(WRITE ${_copy}/go.mod "module lmeval-build/ggml-src\n")
set(_ft ${_copy}/src/ggml-vulkan/vulkan-shaders/feature-tests)
if(NOT EXISTS ${_ggml_src}/src/ggml-vulkan/vulkan-shaders/feature-tests)
    file(COPY ${CMAKE_CURRENT_LIST_DIR}/vulkan-feature-tests/ DESTINATION ${_ft}
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
set(_ggml_src ${_copy})

execute_process(COMMAND ${Vulkan_GLSLC_EXECUTABLE} --version
    OUTPUT_VARIABLE _v ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "\n.*" "" _v "${_v}")
message(STATUS "lmeval: glslc ${Vulkan_GLSLC_EXECUTABLE}: ${_v}")
set(LMEVAL_VULKAN_SHADER_FEATURES "")
foreach(_t coopmat:GL_KHR_cooperative_matrix coopmat2:GL_NV_cooperative_matrix2
        integer_dot:GL_EXT_integer_dot_product bfloat16:GL_EXT_bfloat16)
    string(REPLACE ":" ";" _t ${_t})
    list(GET _t 0 _file)
    list(GET _t 1 _ext)
    execute_process(
        COMMAND ${Vulkan_GLSLC_EXECUTABLE} -o - -fshader-stage=compute --target-env=vulkan1.3 ${_ft}/${_file}.comp
        RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
    if(_rc EQUAL 0)
        list(APPEND LMEVAL_VULKAN_SHADER_FEATURES ${_ext})
    elseif(NOT _err MATCHES "extension not supported: ${_ext}")
        message(FATAL_ERROR "glslc (${Vulkan_GLSLC_EXECUTABLE}) failed on the ${_ext} feature test ${_ft}/${_file}.comp "
            "without saying the extension is unsupported:\n${_err}")
    endif()
endforeach()
message(STATUS "lmeval: glslc supports: ${LMEVAL_VULKAN_SHADER_FEATURES}")

# Older Vulkan headers: see cmake/vulkan-compat.h. Applied to ggml-vulkan
# once its target exists (CMakeLists.txt calls lmeval_vulkan_compat()).
function(lmeval_vulkan_compat)
    if(TARGET ggml-vulkan)
        target_compile_options(ggml-vulkan PRIVATE
            "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-include ${CMAKE_SOURCE_DIR}/cmake/vulkan-compat.h>")
    endif()
endfunction()
