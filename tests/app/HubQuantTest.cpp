// GGUF file-name parsing, grouping a repo's files by quantization, and the fit estimate.
#include <QtTest>

#include "core/GgufFileName.h"
#include "hub/FitEstimator.h"
#include "hub/QuantGrouping.h"

using namespace hearth::app;

class HubQuantTest : public QObject {
    Q_OBJECT
private slots:
    void parsesQuantNames_data();
    void parsesQuantNames();
    void parsesSplitNames();
    void groupsFilesByVariant();
    void bitsPerWeightOrdersQuants();
    void kvFromConfig();
    void parameterCountFromNames();
    void fitEstimate();
};

void HubQuantTest::parsesQuantNames_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("quant");
    QTest::newRow("Q4_K_M") << "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf" << "Q4_K_M";
    QTest::newRow("lower q5_k_s") << "mistral-7b-instruct-v0.2.q5_k_s.gguf" << "Q5_K_S";
    QTest::newRow("IQ3_XXS") << "Qwen2.5-7B-Instruct-IQ3_XXS.gguf" << "IQ3_XXS";
    QTest::newRow("IQ3_XS") << "model-IQ3_XS.gguf" << "IQ3_XS";
    QTest::newRow("IQ4_NL") << "model.IQ4_NL.gguf" << "IQ4_NL";
    QTest::newRow("IQ1_S") << "model-IQ1_S.gguf" << "IQ1_S";
    QTest::newRow("f16") << "stories260K-f16.gguf" << "F16";
    QTest::newRow("fp16") << "phi-2.fp16.gguf" << "F16";
    QTest::newRow("bf16 not f16") << "gemma-2-9b-it-BF16.gguf" << "BF16";
    QTest::newRow("Q8_0") << "tinyllama-1.1b-chat-v1.0.Q8_0.gguf" << "Q8_0";
    QTest::newRow("Q4_0_4_4") << "model-Q4_0_4_4.gguf" << "Q4_0_4_4";
    QTest::newRow("Q3_K_XL unsloth") << "Qwen3-30B-A3B-UD-Q3_K_XL.gguf" << "Q3_K_XL";
    QTest::newRow("Q2_K plain") << "model-Q2_K.gguf" << "Q2_K";
    QTest::newRow("TQ1_0") << "bitnet-TQ1_0.gguf" << "TQ1_0";
    QTest::newRow("MXFP4") << "gpt-oss-20b-MXFP4.gguf" << "MXFP4";
    QTest::newRow("split keeps quant") << "Llama-3.3-70B-Q6_K-00001-of-00002.gguf" << "Q6_K";
    QTest::newRow("in folder") << "Q8_0/Model-Q8_0-00002-of-00003.gguf" << "Q8_0";
    QTest::newRow("none") << "ggml-vocab-llama.gguf" << "";
    QTest::newRow("not inside words") << "AQ4_KM-model.gguf" << "";
}

void HubQuantTest::parsesQuantNames() {
    QFETCH(QString, name);
    QFETCH(QString, quant);
    QCOMPARE(GgufFileName::parse(name).quant, quant);
}

void HubQuantTest::parsesSplitNames() {
    const GgufFileName a = GgufFileName::parse("f16/Model-f16-00002-of-00003.gguf");
    QVERIFY(a.isGguf);
    QVERIFY(a.isSplit());
    QCOMPARE(a.splitIndex, 2);
    QCOMPARE(a.splitCount, 3);
    QCOMPARE(a.baseName, QString("Model-f16"));
    QCOMPARE(a.fileName, QString("Model-f16-00002-of-00003.gguf"));
    QVERIFY(!a.isFirstPart());
    const GgufFileName single = GgufFileName::parse("Model-Q4_0.gguf");
    QVERIFY(!single.isSplit());
    QVERIFY(single.isFirstPart());
    QCOMPARE(single.baseName, QString("Model-Q4_0"));
    const GgufFileName bogus = GgufFileName::parse("Model-00004-of-00003.gguf");  // index > count
    QVERIFY(!bogus.isSplit());
    QVERIFY(GgufFileName::parse("mmproj-model-f16.gguf").isProjector);
    QVERIFY(!GgufFileName::parse("README.md").isGguf);
}

void HubQuantTest::groupsFilesByVariant() {
    const QList<HubFile> files = {
        {".gitattributes", 2456, {}, "x"},
        {"M-Q8_0.gguf", 8000, QString(64, 'a'), "x"},
        {"f16/M-f16-00002-of-00002.gguf", 6000, QString(64, 'b'), "x"},
        {"f16/M-f16-00001-of-00002.gguf", 9000, QString(64, 'c'), "x"},
        {"M-Q4_K_M.gguf", 4900, QString(64, 'd'), "x"},
        {"mmproj-M-f16.gguf", 600, QString(64, 'e'), "x"},
        {"Q2/M-Q2_K-00001-of-00002.gguf", 3000, QString(64, 'f'), "x"},  // part 2 missing
        {"M-custom.gguf", 100, QString(64, '1'), "x"},
    };
    const QList<QuantGroup> groups = QuantGrouping::group(files);
    QCOMPARE(groups.size(), 6);
    QCOMPARE(groups[0].quant, QString("Q2_K"));
    QVERIFY(groups[0].split);
    QVERIFY(!groups[0].complete);
    QCOMPARE(groups[1].quant, QString("Q4_K_M"));
    QCOMPARE(groups[2].quant, QString("Q8_0"));
    QCOMPARE(groups[3].quant, QString("F16"));
    QVERIFY(groups[3].split);
    QVERIFY(groups[3].complete);
    QCOMPARE(groups[3].files.size(), 2);
    QVERIFY(groups[3].files[0].path.endsWith("-00001-of-00002.gguf"));  // in part order
    QCOMPARE(groups[3].totalBytes, qint64(15000));
    QCOMPARE(groups[3].baseName, QString("f16/M-f16"));
    QCOMPARE(groups[4].quant, QString(""));  // unknown quant sorts after known ones
    QVERIFY(groups[5].projector);
}

void HubQuantTest::bitsPerWeightOrdersQuants() {
    QVERIFY(QuantGrouping::bitsPerWeight("IQ1_S") < QuantGrouping::bitsPerWeight("IQ2_XXS"));
    QVERIFY(QuantGrouping::bitsPerWeight("Q3_K_M") < QuantGrouping::bitsPerWeight("Q4_K_M"));
    QVERIFY(QuantGrouping::bitsPerWeight("Q4_K_M") < QuantGrouping::bitsPerWeight("Q5_K_M"));
    QVERIFY(QuantGrouping::bitsPerWeight("Q6_K") < QuantGrouping::bitsPerWeight("Q8_0"));
    QCOMPARE(QuantGrouping::bitsPerWeight("F16"), 16.0);
    QCOMPARE(QuantGrouping::bitsPerWeight("q8_0"), 8.5);
    QCOMPARE(QuantGrouping::bitsPerWeight("NOPE"), 0.0);
}

void HubQuantTest::kvFromConfig() {
    QFile f(QString(HEARTH_APP_TEST_DATA) + "/hub/config-llama-3.1-8b-instruct.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject llama = QJsonDocument::fromJson(f.readAll()).object();
    // 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 128 KiB per token.
    QCOMPARE(FitEstimator::kvBytesPerTokenFromConfig(llama), 131072.0);
    QCOMPARE(FitEstimator::kvBytesPerTokenFromConfig(llama, 1.0), 65536.0);
    QFile g(QString(HEARTH_APP_TEST_DATA) + "/hub/config-qwen2.5-vl-72b.json");
    QVERIFY(g.open(QIODevice::ReadOnly));
    // Nested text_config: 2 x 80 x 8 x (8192 / 64) x 2.
    QCOMPARE(FitEstimator::kvBytesPerTokenFromConfig(QJsonDocument::fromJson(g.readAll()).object()), 327680.0);
    // No GQA key: every head has its own KV (multi-head attention), head dim from hidden size.
    QCOMPARE(FitEstimator::kvBytesPerTokenFromConfig(
                 QJsonObject{{"num_hidden_layers", 2}, {"num_attention_heads", 4}, {"hidden_size", 256}}),
             2.0 * 2 * 4 * 64 * 2);
    QCOMPARE(FitEstimator::kvBytesPerTokenFromConfig(QJsonObject{{"model_type", "llama"}}), 0.0);
    const double guess = FitEstimator::kvBytesPerTokenGuess(8'000'000'000ull);
    QVERIFY(guess > 131072.0 * 0.8 && guess < 131072.0 * 1.2);
}

void HubQuantTest::parameterCountFromNames() {
    QCOMPARE(FitEstimator::parameterCountFromName("Meta-Llama-3.1-8B-Instruct-GGUF"), 8'000'000'000ull);
    QCOMPARE(FitEstimator::parameterCountFromName("Qwen2.5-0.5B-Instruct"), 500'000'000ull);
    QCOMPARE(FitEstimator::parameterCountFromName("SmolLM2-135M-Instruct"), 135'000'000ull);
    QCOMPARE(FitEstimator::parameterCountFromName("Mixtral-8x7B-v0.1"), 56'000'000'000ull);
    QCOMPARE(FitEstimator::parameterCountFromName("stories260K"), 0ull);  // K is not a size unit here
    QCOMPARE(FitEstimator::parameterCountFromName("gpt2"), 0ull);
    // 4.92 GB at Q4_K_M's 4.89 bits per weight is about 8 billion parameters.
    const quint64 p = FitEstimator::parameterCountFromSize(4920739232, QuantGrouping::bitsPerWeight("Q4_K_M"));
    QVERIFY2(p > 7'500'000'000ull && p < 8'500'000'000ull, QByteArray::number(p));
    QCOMPARE(FitEstimator::parameterCountFromSize(100, 0), 0ull);
}

void HubQuantTest::fitEstimate() {
    const qint64 gib = 1ll << 30;
    FitRequest r;
    r.weightBytes = 4920739232;
    r.kvBytesPerToken = 131072;
    r.contextLength = 8192;
    r.deviceFreeBytes = {quint64(8 * gib)};
    FitEstimate e = FitEstimator::estimate(r);
    QCOMPARE(e.kvBytes, qint64(1) << 30);  // 8192 tokens x 128 KiB
    QCOMPARE(e.requiredBytes, e.weightBytes + e.kvBytes + e.overheadBytes);
    QVERIFY(e.overheadBytes >= FitEstimator::kPerDeviceOverhead);
    QVERIFY(e.fits);
    QVERIFY(!e.approximate);
    QVERIFY(e.summary.contains("GPU memory"));

    r.contextLength = 131072;  // 16 GiB of KV: does not fit in 8 GiB
    e = FitEstimator::estimate(r);
    QVERIFY(!e.fits);
    r.deviceFreeBytes = {quint64(12 * gib), quint64(12 * gib)};  // ... but does in two 12 GiB cards
    r.kvApproximate = true;
    e = FitEstimator::estimate(r);
    QCOMPARE(e.availableBytes, 24 * gib);
    QVERIFY(e.fits);
    QVERIFY(e.approximate);
    QVERIFY(e.summary.startsWith("about"));
    QVERIFY(e.summary.contains("2 GPUs"));

    FitRequest cpu;  // CPU only: host RAM is the budget
    cpu.weightBytes = 2 * gib;
    cpu.kvBytesPerToken = 65536;
    cpu.contextLength = 4096;
    cpu.hostAvailableBytes = quint64(gib);
    QVERIFY(!FitEstimator::estimate(cpu).fits);
    cpu.hostAvailableBytes = quint64(4 * gib);
    QVERIFY(FitEstimator::estimate(cpu).fits);
    QVERIFY(FitEstimator::estimate(cpu).summary.contains("RAM"));
}

QTEST_GUILESS_MAIN(HubQuantTest)
#include "HubQuantTest.moc"
