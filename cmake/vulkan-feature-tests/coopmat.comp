#version 460

// Compiles only where glslc knows GL_KHR_cooperative_matrix (ggml-vulkan feature test;
// see CMakeLists.txt).
#extension GL_KHR_cooperative_matrix : require

void main()
{
}
