// A Tokenizer is shared by the engine thread and HTTP workers: encoding from several threads at
// once gives the same ids as encoding alone.
#include <gtest/gtest.h>

#include <thread>

#include "../TestPaths.h"
#include "MixedText.h"
#include "hearth/tokenizer.h"

using namespace hearth;

TEST(TokenizerThreads, ConcurrentEncodeMatchesSerial) {
    for (const char* model : {"coder-f16.gguf", "stories260K.gguf"}) {
        auto t = Tokenizer::fromGguf(test::modelPath(model));
        ASSERT_TRUE(t.ok()) << t.error().toString();
        const auto tok = *t;
        const auto texts = test::MixedText::texts(400, 7);
        std::vector<std::vector<TokenId>> serial;
        for (const auto& s : texts) serial.push_back(tok->encode(s));
        std::vector<int> mismatches(4, 0);
        std::vector<std::thread> threads;
        for (int k = 0; k < 4; ++k)
            threads.emplace_back([&, k] {
                for (size_t i = static_cast<size_t>(k); i < texts.size() * 2; i += 3) {
                    const size_t j = i % texts.size();
                    if (tok->encode(texts[j]) != serial[j]) ++mismatches[static_cast<size_t>(k)];
                }
            });
        for (auto& th : threads) th.join();
        for (int m : mismatches) EXPECT_EQ(m, 0) << model;
    }
}
