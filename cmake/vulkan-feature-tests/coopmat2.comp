#version 460

// Compiles only where glslc knows GL_NV_cooperative_matrix2 (ggml-vulkan feature test;
// see CMakeLists.txt).
#extension GL_NV_cooperative_matrix2 : require

void main()
{
}
