/*
 * vulkan-compat.h: force-included into ggml-vulkan.cpp (see
 * cmake/vulkan-overlay.cmake) so that it compiles against Vulkan headers
 * older than 1.3.261 (Debian 12 ships 1.3.239, Ubuntu 22.04 1.3.204).
 *
 * ggml-vulkan.cpp always builds a VkLayerSettingsCreateInfoEXT (the
 * VK_EXT_layer_settings extension, which it enables only for its debug
 * validation) and chains it into VkInstanceCreateInfo. Older headers lack
 * the extension's types; here they are declared with the layout and
 * structure type value of the Vulkan registry. Without the extension
 * enabled, implementations ignore the chained structure, as the
 * specification lets them for an extension that is not enabled. With
 * headers that have the extension this file declares nothing.
 */
#ifndef LMEVAL_VULKAN_COMPAT_H
#define LMEVAL_VULKAN_COMPAT_H

#ifdef __cplusplus
#include <cstdint>
#include <vector>
#include <vulkan/vulkan_core.h>

#ifndef VK_EXT_layer_settings
namespace vk {
enum class LayerSettingTypeEXT : int32_t {
	eBool32 = 0,
	eInt32 = 1,
	eInt64 = 2,
	eUint32 = 3,
	eUint64 = 4,
	eFloat32 = 5,
	eFloat64 = 6,
	eString = 7,
};

struct LayerSettingEXT {
	const char *pLayerName;
	const char *pSettingName;
	LayerSettingTypeEXT type;
	uint32_t valueCount;
	const void *pValues;
};

struct LayerSettingsCreateInfoEXT {
	// VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT
	VkStructureType sType = static_cast<VkStructureType>(1000496000);
	const void *pNext = nullptr;
	uint32_t settingCount = 0;
	const LayerSettingEXT *pSettings = nullptr;

	explicit LayerSettingsCreateInfoEXT(const std::vector<LayerSettingEXT> &settings)
	    : settingCount(static_cast<uint32_t>(settings.size())), pSettings(settings.data()) {}
};
} // namespace vk
#endif
#endif

#endif
