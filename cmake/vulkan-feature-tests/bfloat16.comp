#version 460

// Compiles only where glslc knows GL_EXT_bfloat16 (ggml-vulkan feature test;
// see CMakeLists.txt).
#extension GL_EXT_bfloat16 : require

void main()
{
}
