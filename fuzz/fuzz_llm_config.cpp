// libFuzzer target: the HuggingFace config.json reader (llm::parse_llm_config). A returned
// config has positive sizes, heads dividing into KV groups, and no more experts per token than
// experts.
#include "fuzz_contract.hpp"
#include "perfmodel/llm/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const llm::LlmConfig c = llm::parse_llm_config(text, fuzz::kFile);
    fuzz::require(c.hidden > 0 && c.intermediate > 0 && c.layers > 0 && c.heads > 0 &&
                      c.kv_heads > 0 && c.head_dim > 0 && c.vocab > 0 && c.max_positions > 0,
                  "sizes positive");
    fuzz::require(c.heads % c.kv_heads == 0, "query heads a multiple of the KV heads");
    fuzz::require(c.experts_per_token <= c.experts || c.experts == 0, "experts per token");
    fuzz::require(c.sliding_window >= 0 && c.position_offset >= 0, "window and offset");
  });
  return 0;
}
