#version 460

// Compiles only where glslc knows GL_EXT_integer_dot_product (ggml-vulkan feature test;
// see CMakeLists.txt).
#extension GL_EXT_integer_dot_product : require

void main()
{
}
