// Domain index: build from a folder, reopen memory-mapped, propose; refuse mismatched or corrupt files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "spec/DomainIndex.h"
#include "spec/DomainIndexBuilder.h"

using namespace hearth;
namespace fs = std::filesystem;

namespace {

// One token per byte: enough to exercise the index without a model.
class ByteTokenizer final : public Tokenizer {
public:
    explicit ByteTokenizer(uint64_t fp = 1234) : fp_(fp) {}
    std::vector<TokenId> encode(std::string_view text, TokenizeOptions) const override {
        return std::vector<TokenId>(text.begin(), text.end());
    }
    std::string decode(std::span<const TokenId> ids, bool) const override { return std::string(ids.begin(), ids.end()); }
    std::string tokenPiece(TokenId id) const override { return std::string(1, static_cast<char>(id)); }
    int32_t vocabSize() const override { return 256; }
    TokenId bos() const override { return -1; }
    TokenId eos() const override { return -1; }
    bool addsBos() const override { return false; }
    bool addsEos() const override { return false; }
    const std::vector<TokenId>& endOfGeneration() const override { return eog_; }
    TokenId findSpecial(std::string_view) const override { return -1; }
    std::string bosText() const override { return {}; }
    std::string eosText() const override { return {}; }
    uint64_t fingerprint() const override { return fp_; }

private:
    uint64_t fp_;
    std::vector<TokenId> eog_;
};

std::vector<TokenId> bytes(const std::string& s) { return std::vector<TokenId>(s.begin(), s.end()); }

struct Fixture : ::testing::Test {
    fs::path dir = fs::temp_directory_path() / ("hearth_index_" + std::to_string(::getpid()));
    void SetUp() override {
        fs::create_directories(dir / "src" / ".git");
        fs::create_directories(dir / "node_modules");
        std::ofstream(dir / "src" / "a.py") << "def compute_total(items):\n    return sum(item.price for item in items)\n";
        std::ofstream(dir / "src" / "b.py") << "class Cart:\n    def add(self, item):\n        self.items.append(item)\n";
        std::ofstream(dir / "src" / ".git" / "HEAD") << "ref: refs/heads/main\n";
        std::ofstream(dir / "node_modules" / "x.js") << "module.exports = 1;\n";
        std::ofstream(dir / "src" / "bin.dat", std::ios::binary) << std::string("a\0b", 3);
    }
    void TearDown() override { fs::remove_all(dir); }
};

}  // namespace

TEST_F(Fixture, BuildsSkipsNonTextAndProposesContinuations) {
    auto tok = std::make_shared<ByteTokenizer>();
    DomainIndexBuilder b(tok);
    b.addPath(dir.string());
    int calls = 0;
    auto sum = b.build((dir / "ix.bin").string(), [&](const IndexBuildProgress&) { ++calls; return true; });
    ASSERT_TRUE(sum.ok()) << sum.error().toString();
    EXPECT_EQ(sum->files, 2u);    // .git and node_modules skipped, the binary file too
    EXPECT_EQ(sum->skipped, 1u);
    EXPECT_GT(calls, 3);
    auto ix = DomainIndex::open((dir / "ix.bin").string(), tok->fingerprint());
    ASSERT_TRUE(ix.ok()) << ix.error().toString();
    std::vector<TokenId> out;
    (*ix)->propose(bytes("x = compute_to"), 2, 6, 10, out);
    EXPECT_EQ(std::string(out.begin(), out.end()), "tal(items)");
    (*ix)->propose(bytes("self.ite"), 2, 6, 9, out);
    EXPECT_EQ(std::string(out.begin(), out.end()), "ms.append");
    (*ix)->propose(bytes("zzzzqq"), 2, 6, 9, out);
    EXPECT_TRUE(out.empty());
}

TEST_F(Fixture, RefusesOtherTokenizerCorruptionAndCancels) {
    auto tok = std::make_shared<ByteTokenizer>(1);
    DomainIndexBuilder b(tok);
    b.addPath(dir.string());
    const auto path = (dir / "ix.bin").string();
    ASSERT_TRUE(b.build(path).ok());
    auto other = DomainIndex::open(path, 2);
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("different tokenizer"), std::string::npos);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(60);
        f.put('\x7f');
    }
    auto bad = DomainIndex::open(path, 1);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::Corrupt);
    fs::resize_file(path, 30);
    EXPECT_FALSE(DomainIndex::open(path, 1).ok());

    DomainIndexBuilder c(tok);
    c.addPath(dir.string());
    const auto p2 = (dir / "cancel.bin").string();
    auto r = c.build(p2, [](const IndexBuildProgress& p) { return p.phase != IndexBuildProgress::Phase::Sorting; });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Cancelled);
    EXPECT_FALSE(fs::exists(p2));
    EXPECT_FALSE(fs::exists(p2 + ".tmp"));
}
