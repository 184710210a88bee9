// libFuzzer target for the GGUF reader: any byte string must parse or give an error value.
#include <cstddef>
#include <cstdint>

#include "gguf/GgufFile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto f = hearth::GgufFile::parse(data, size, "fuzz");
    if (f.ok()) {
        // Touch what a loader would: every tensor's bytes and every metadata value.
        uint64_t sum = 0;
        for (const auto& t : (*f)->tensors()) {
            const uint8_t* p = (*f)->tensorData(t);
            if (t.byteSize) sum += p[0] + p[t.byteSize - 1];
        }
        for (const auto& kv : (*f)->metadata()) sum += kv.second.toDisplayString().size();
        volatile uint64_t sink = sum;
        (void)sink;
    } else if (f.error().message.empty()) {
        __builtin_trap();  // every error must say what is wrong
    }
    return 0;
}
