// The API server over a scripted backend, through real loopback HTTP: routing, request validation
// and error bodies, SSE and NDJSON framing, keys, limits, CORS, body cap, keep-alive comments,
// disconnect cancellation, the LAN rule. The real-engine acceptance tests are in tests/api.
#include <httplib.h>

#include <QFile>
#include <QTest>
#include <thread>

#include <nlohmann/json.hpp>

#include "FakeBackend.h"
#include "TestPaths.h"
#include "server/ApiServer.h"

using namespace hearth;
using namespace hearth::app::server;
using nlohmann::json;

namespace {

struct Harness {
    std::shared_ptr<test::FakeBackend> backend;
    std::shared_ptr<KeyAuthenticator> auth = std::make_shared<KeyAuthenticator>();
    std::unique_ptr<ApiServer> server;
    std::vector<AccessLogEntry> log;
    std::mutex logMutex;

    explicit Harness(ServerConfig cfg = {}, std::vector<std::string> fileKeys = {}, ApiKeyLimits keyLimits = {},
                     bool loadModel = true) {
        auto tok = Tokenizer::fromGguf(test::modelPath("stories260K.gguf"));
        if (!tok) qFatal("no tokenizer: %s", tok.error().toString().c_str());
        backend = std::make_shared<test::FakeBackend>(*tok, test::modelPath("stories260K.gguf"));
        if (!fileKeys.empty()) auth->setFileKeys(fileKeys, keyLimits);
        cfg.port = 0;
        if (cfg.keepAliveMs == ServerConfig{}.keepAliveMs) cfg.keepAliveMs = 5000;
        server = std::make_unique<ApiServer>(cfg, auth, [this](const AccessLogEntry& e) {
            std::lock_guard<std::mutex> l(logMutex);
            log.push_back(e);
        });
        const Status st = server->start();
        if (!st.ok()) qFatal("server did not start: %s", st.error().toString().c_str());
        if (loadModel) server->setModel(backend);
    }
    // The server first: its workers may still be logging a stream that the client already finished reading.
    ~Harness() { server.reset(); }
    httplib::Client client() const {
        httplib::Client c("127.0.0.1", server->port());
        c.set_read_timeout(20, 0);
        return c;
    }
    httplib::Result post(const std::string& path, const std::string& body, httplib::Headers headers = {}) const {
        return client().Post(path.c_str(), headers, body, "application/json");
    }
    std::vector<AccessLogEntry> entries() {
        std::lock_guard<std::mutex> l(logMutex);
        return log;
    }
};

json body(const httplib::Result& r) { return json::parse(r->body, nullptr, false); }

// The "data:" payloads of an SSE body, in order ("[DONE]" included as a string).
std::vector<std::string> sseData(const std::string& text) {
    std::vector<std::string> out;
    size_t pos = 0;
    while ((pos = text.find("data: ", pos)) != std::string::npos) {
        const size_t end = text.find("\n\n", pos);
        out.push_back(text.substr(pos + 6, end - pos - 6));
        pos = end;
    }
    return out;
}

void expectOpenAiError(const httplib::Result& r, int status, const std::string& code, const std::string& param = "*") {
    QVERIFY(r);
    QCOMPARE(r->status, status);
    const json j = body(r);
    QVERIFY2(j.contains("error") && j["error"].is_object(), r->body.c_str());
    const json& e = j["error"];
    QVERIFY(e["message"].is_string() && !e["message"].get<std::string>().empty());
    QVERIFY(e["type"].is_string());
    QVERIFY(e.contains("param") && e.contains("code"));
    if (!code.empty()) QCOMPARE(QString::fromStdString(e["code"].is_null() ? "" : e["code"].get<std::string>()), QString::fromStdString(code));
    if (param != "*") QCOMPARE(QString::fromStdString(e["param"].is_null() ? "" : e["param"].get<std::string>()), QString::fromStdString(param));
}

const char* kChat = R"({"model":"stories260K","messages":[{"role":"user","content":"Hi"}]})";

}  // namespace

class ApiServerTest : public QObject {
    Q_OBJECT
private slots:
    void healthReportsLoadingThenReady();
    void modelsAndOllamaListings();
    void chatCompletionMapsParametersAndAnswers();
    void chatStreamFraming();
    void completionsWithEchoLogprobsAndChoices();
    void badInputsGetDocumentedErrors_data();
    void badInputsGetDocumentedErrors();
    void bodyOverTheLimitIs413();
    void engineErrorsBecomeErrorBodies();
    void ollamaChatAndGenerate();
    void keysRequiredWhenAsked();
    void lanBindNeedsAKey();
    void perKeyConcurrencyAndTokenLimits();
    void serverCapacityIs503();
    void corsOnlyForListedOrigins();
    void keepAliveCommentsDuringLongPrefill();
    void disconnectMidStreamCancels();
    void metricsArePrometheusText();
    void modelChatTemplateIsUsed();
};

void ApiServerTest::healthReportsLoadingThenReady() {
    Harness h({}, {}, {}, false);
    h.server->setLoading(0.25f);
    auto r = h.client().Get("/health");
    QVERIFY(r);
    QCOMPARE(r->status, 503);
    QCOMPARE(QString::fromStdString(body(r)["status"]), QString("loading"));
    expectOpenAiError(h.post("/v1/chat/completions", kChat), 503, "model_loading");
    QVERIFY(h.post("/v1/chat/completions", kChat)->has_header("Retry-After"));
    h.server->setModel(h.backend);
    r = h.client().Get("/health");
    QCOMPARE(r->status, 200);
    QCOMPARE(QString::fromStdString(body(r)["status"]), QString("ready"));
}

void ApiServerTest::modelsAndOllamaListings() {
    Harness h;
    auto r = h.client().Get("/v1/models");
    QCOMPARE(r->status, 200);
    json j = body(r);
    QCOMPARE(QString::fromStdString(j["object"]), QString("list"));
    QCOMPARE(j["data"].size(), size_t(1));
    QCOMPARE(QString::fromStdString(j["data"][0]["id"]), QString("stories260K"));
    QCOMPARE(h.client().Get("/v1/models/stories260K")->status, 200);
    expectOpenAiError(h.client().Get("/v1/models/nope"), 404, "model_not_found");
    j = body(h.client().Get("/api/tags"));
    QCOMPARE(QString::fromStdString(j["models"][0]["name"]), QString("stories260K:latest"));
    QCOMPARE(j["models"][0]["digest"].get<std::string>().size(), size_t(64));
    QCOMPARE(QString::fromStdString(j["models"][0]["details"]["family"]), QString("llama"));
    QVERIFY(body(h.client().Get("/api/ps"))["models"].size() == 1);
    QVERIFY(body(h.client().Get("/api/version"))["version"].is_string());
}

void ApiServerTest::chatCompletionMapsParametersAndAnswers() {
    Harness h;
    auto r = h.post("/v1/chat/completions", R"({"model":"stories260K","messages":[{"role":"system","content":"Be brief."},
        {"role":"user","content":[{"type":"text","text":"Hello"}]}],"temperature":0.3,"top_p":0.5,"seed":42,
        "max_tokens":4,"stop":["END"],"frequency_penalty":0.5,"user":"alice"})");
    QVERIFY(r);
    QCOMPARE(r->status, 200);
    const json j = body(r);
    QCOMPARE(QString::fromStdString(j["object"]), QString("chat.completion"));
    QVERIFY(j["id"].get<std::string>().rfind("chatcmpl-", 0) == 0);
    QCOMPARE(QString::fromStdString(j["choices"][0]["message"]["role"]), QString("assistant"));
    QCOMPARE(QString::fromStdString(j["choices"][0]["message"]["content"]), QString("t0 t1 t2 t3 "));
    QCOMPARE(QString::fromStdString(j["choices"][0]["finish_reason"]), QString("length"));
    QCOMPARE(j["usage"]["completion_tokens"].get<int>(), 4);
    QVERIFY(j["usage"]["prompt_tokens"].get<int>() > 3);
    QCOMPARE(j["usage"]["total_tokens"].get<int>(),
             j["usage"]["prompt_tokens"].get<int>() + j["usage"]["completion_tokens"].get<int>());
    const auto sent = h.backend->submitted();
    QCOMPARE(sent.size(), size_t(1));
    const GenerationRequest& g = sent[0];
    QCOMPARE(g.sampling.temperature, 0.3f);
    QCOMPARE(g.sampling.topP, 0.5f);
    QCOMPARE(g.sampling.seed, uint64_t(42));
    QCOMPARE(g.sampling.frequencyPenalty, 0.5f);
    QCOMPARE(g.maxTokens, 4);
    QVERIFY(std::find(g.stop.begin(), g.stop.end(), "END") != g.stop.end());
    QCOMPARE(QString::fromStdString(g.user), QString("user:alice"));
    // No template in stories260K: the plain transcript, with the system and user turns.
    auto tok = h.backend->tokenizer();
    const std::string prompt = tok->decode(g.promptTokens);
    QVERIFY2(prompt.find("System: Be brief.") != std::string::npos && prompt.find("User: Hello") != std::string::npos,
             prompt.c_str());
    QVERIFY(prompt.size() > 10 && prompt.compare(prompt.size() - 10, 10, "Assistant:") == 0);
    // response_format reaches the engine as a constraint.
    r = h.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema",
        "json_schema":{"name":"p","schema":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}}})");
    QCOMPARE(r->status, 200);
    QCOMPARE(int(h.backend->submitted().back().constraint.kind), int(OutputConstraint::Kind::JsonSchema));
    QVERIFY(h.backend->submitted().back().constraint.jsonSchema.find("\"required\"") != std::string::npos);
    const auto log = h.entries();
    QVERIFY(!log.empty());
    QCOMPARE(log.front().status, 200);
    QCOMPARE(QString::fromStdString(log.front().model), QString("stories260K"));
    QCOMPARE(log.front().completionTokens, 4);
}

void ApiServerTest::chatStreamFraming() {
    Harness h;
    auto r = h.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Hi [stop:3]"}],"stream":true,"n":2,
        "stream_options":{"include_usage":true},"logprobs":true,"top_logprobs":2})");
    QVERIFY(r);
    QCOMPARE(r->status, 200);
    QVERIFY(r->get_header_value("Content-Type").rfind("text/event-stream", 0) == 0);
    const auto events = sseData(r->body);
    QVERIFY(events.size() > 4);
    QCOMPARE(QString::fromStdString(events.back()), QString("[DONE]"));
    std::map<int, std::string> text;
    std::map<int, int> roleAt, finishAt;
    int index = 0, usageAt = -1;
    for (size_t i = 0; i + 1 < events.size(); ++i, ++index) {
        const json c = json::parse(events[i]);
        QCOMPARE(QString::fromStdString(c["object"]), QString("chat.completion.chunk"));
        QVERIFY(c.contains("usage"));
        if (c["choices"].empty()) {
            usageAt = index;
            QCOMPARE(c["usage"]["completion_tokens"].get<int>(), 6);
            continue;
        }
        QVERIFY(c["usage"].is_null());
        const json& ch = c["choices"][0];
        const int k = ch["index"];
        if (ch["delta"].contains("role")) {
            QVERIFY(!roleAt.count(k));
            roleAt[k] = index;
        }
        if (ch["delta"].contains("content")) text[k] += ch["delta"]["content"].get<std::string>();
        if (ch["delta"].contains("content") && !ch["delta"].contains("role")) {
            QCOMPARE(ch["logprobs"]["content"].size(), size_t(1));
            QCOMPARE(ch["logprobs"]["content"][0]["top_logprobs"].size(), size_t(2));
        }
        if (!ch["finish_reason"].is_null()) {
            QCOMPARE(QString::fromStdString(ch["finish_reason"]), QString("stop"));
            finishAt[k] = index;
        }
    }
    for (int k = 0; k < 2; ++k) {
        QVERIFY(roleAt.count(k) && finishAt.count(k));
        QVERIFY(roleAt[k] < finishAt[k]);
        QCOMPARE(QString::fromStdString(text[k]), QString("t0 t1 t2 "));
    }
    QVERIFY(usageAt > finishAt[0] && usageAt > finishAt[1]);
}

void ApiServerTest::completionsWithEchoLogprobsAndChoices() {
    Harness h;
    auto r = h.post("/v1/completions", R"({"prompt":["Once","Twice"],"n":2,"max_tokens":2,"echo":true,"seed":7})");
    QCOMPARE(r->status, 200);
    json j = body(r);
    QCOMPARE(QString::fromStdString(j["object"]), QString("text_completion"));
    QCOMPARE(j["choices"].size(), size_t(4));
    QCOMPARE(QString::fromStdString(j["choices"][0]["text"]), QString("Oncet0 t1 "));
    QCOMPARE(QString::fromStdString(j["choices"][3]["text"]), QString("Twicet0 t1 "));
    const auto sent = h.backend->submitted();
    QCOMPARE(sent.size(), size_t(4));
    QVERIFY(sent[0].sampling.seed != sent[1].sampling.seed);  // choices differ, reproducibly
    QCOMPARE(sent[1].sampling.seed, uint64_t(8));
    r = h.post("/v1/completions", R"({"prompt":"Once","max_tokens":3,"logprobs":2})");
    j = body(r);
    const json& lp = j["choices"][0]["logprobs"];
    QCOMPARE(lp["tokens"].size(), size_t(3));
    QCOMPARE(lp["token_logprobs"][0].get<double>(), -0.25);
    QCOMPARE(lp["top_logprobs"][0].size(), size_t(2));
    QCOMPARE(lp["text_offset"].size(), size_t(3));
    r = h.post("/v1/completions", R"({"prompt":"Once","max_tokens":2,"stream":true})");
    const auto events = sseData(r->body);
    QCOMPARE(QString::fromStdString(events.back()), QString("[DONE]"));
    QCOMPARE(QString::fromStdString(json::parse(events[0])["object"]), QString("text_completion"));
    // Token-id prompts are accepted and checked.
    QCOMPARE(h.post("/v1/completions", R"({"prompt":[1, 40, 50],"max_tokens":1})")->status, 200);
    expectOpenAiError(h.post("/v1/completions", R"({"prompt":[1, 99999],"max_tokens":1})"), 400, "invalid_value", "prompt");
}

void ApiServerTest::badInputsGetDocumentedErrors_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("payload");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("param");
    const QString chat = "/v1/chat/completions";
    QTest::newRow("malformed json") << chat << "{\"messages\": [" << 400 << "invalid_json" << "";
    QTest::newRow("not an object") << chat << "[1,2]" << 400 << "invalid_json" << "";
    QTest::newRow("no messages") << chat << "{}" << 400 << "missing_required_parameter" << "messages";
    QTest::newRow("messages not array") << chat << R"({"messages":"hi"})" << 400 << "invalid_type" << "messages";
    QTest::newRow("bad role") << chat << R"({"messages":[{"role":"wizard","content":"x"}]})" << 400 << "invalid_value" << "messages[0].role";
    QTest::newRow("content number") << chat << R"({"messages":[{"role":"user","content":5}]})" << 400 << "invalid_type" << "messages[0].content";
    QTest::newRow("image part") << chat << R"({"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]})" << 400 << "unsupported_content" << "messages[0].content[0]";
    QTest::newRow("temperature string") << chat << R"({"messages":[{"role":"user","content":"x"}],"temperature":"hot"})" << 400 << "invalid_type" << "temperature";
    QTest::newRow("temperature too high") << chat << R"({"messages":[{"role":"user","content":"x"}],"temperature":7})" << 400 << "invalid_value" << "temperature";
    QTest::newRow("negative max_tokens") << chat << R"({"messages":[{"role":"user","content":"x"}],"max_tokens":-5})" << 400 << "invalid_value" << "max_tokens";
    QTest::newRow("zero max_tokens") << chat << R"({"messages":[{"role":"user","content":"x"}],"max_tokens":0})" << 400 << "invalid_value" << "max_tokens";
    QTest::newRow("huge max_tokens") << chat << R"({"messages":[{"role":"user","content":"x"}],"max_tokens":100000000})" << 400 << "invalid_value" << "max_tokens";
    QTest::newRow("fractional n") << chat << R"({"messages":[{"role":"user","content":"x"}],"n":1.5})" << 400 << "invalid_type" << "n";
    QTest::newRow("n too large") << chat << R"({"messages":[{"role":"user","content":"x"}],"n":99})" << 400 << "invalid_value" << "n";
    QTest::newRow("stream not bool") << chat << R"({"messages":[{"role":"user","content":"x"}],"stream":"yes"})" << 400 << "invalid_type" << "stream";
    QTest::newRow("stop not strings") << chat << R"({"messages":[{"role":"user","content":"x"}],"stop":[1]})" << 400 << "invalid_type" << "stop";
    QTest::newRow("logit_bias") << chat << R"({"messages":[{"role":"user","content":"x"}],"logit_bias":{"5":10}})" << 400 << "unsupported_parameter" << "logit_bias";
    QTest::newRow("top_logprobs alone") << chat << R"({"messages":[{"role":"user","content":"x"}],"top_logprobs":2})" << 400 << "invalid_value" << "top_logprobs";
    QTest::newRow("schema pattern") << chat << R"({"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"string","pattern":"a+"}}}})" << 400 << "invalid_schema" << "response_format.json_schema.schema";
    QTest::newRow("format type") << chat << R"({"messages":[{"role":"user","content":"x"}],"response_format":{"type":"yaml"}})" << 400 << "invalid_value" << "response_format.type";
    QTest::newRow("unknown model") << chat << R"({"model":"gpt-9","messages":[{"role":"user","content":"x"}]})" << 404 << "model_not_found" << "model";
    QTest::newRow("prompt missing") << "/v1/completions" << R"({"model":"stories260K"})" << 400 << "missing_required_parameter" << "prompt";
    QTest::newRow("prompt object") << "/v1/completions" << R"({"prompt":{"a":1}})" << 400 << "invalid_type" << "prompt";
    QTest::newRow("suffix") << "/v1/completions" << R"({"prompt":"a","suffix":"b"})" << 400 << "unsupported_parameter" << "suffix";
    QTest::newRow("long prompt") << "/v1/completions" << QString("{\"prompt\":\"%1\"}").arg(QString("word ").repeated(400)) << 400 << "context_length_exceeded" << "prompt";
    QTest::newRow("unknown route") << "/v1/embeddings" << "{}" << 404 << "unknown_route" << "";
}

void ApiServerTest::badInputsGetDocumentedErrors() {
    QFETCH(QString, path);
    QFETCH(QString, payload);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, param);
    static Harness h;  // one server for the whole table: it must keep serving after each
    expectOpenAiError(h.post(path.toStdString(), payload.toStdString()), status, code.toStdString(), param.toStdString());
    auto ok = h.post("/v1/chat/completions", kChat);
    QVERIFY(ok);
    QCOMPARE(ok->status, 200);
}

void ApiServerTest::bodyOverTheLimitIs413() {
    ServerConfig cfg;
    cfg.maxBodyBytes = 1 << 20;
    Harness h(cfg);
    std::string big = R"({"messages":[{"role":"user","content":")" + std::string(10 << 20, 'a') + "\"}]}";
    expectOpenAiError(h.post("/v1/chat/completions", big), 413, "request_too_large");
    QCOMPARE(h.post("/v1/chat/completions", kChat)->status, 200);
}

void ApiServerTest::engineErrorsBecomeErrorBodies() {
    Harness h;
    expectOpenAiError(h.post("/v1/completions", R"({"prompt":"[fail]"})"), 400, "invalid_value");
    auto r = h.post("/v1/completions", R"({"prompt":"[fail]","stream":true})");
    QCOMPARE(r->status, 200);  // the stream had started
    const auto events = sseData(r->body);
    QVERIFY(events.size() >= 2);
    QVERIFY(json::parse(events[0]).contains("error"));
    QCOMPARE(QString::fromStdString(events.back()), QString("[DONE]"));
    const auto ollama = h.post("/api/generate", R"({"prompt":"[fail]","stream":false,"raw":true})");
    QCOMPARE(ollama->status, 400);
    QVERIFY(body(ollama)["error"].is_string());
}

void ApiServerTest::ollamaChatAndGenerate() {
    Harness h;
    auto r = h.post("/api/chat", R"({"model":"stories260K","messages":[{"role":"user","content":"Hi [stop:3]"}]})");
    QCOMPARE(r->status, 200);
    QVERIFY(r->get_header_value("Content-Type").rfind("application/x-ndjson", 0) == 0);
    std::vector<json> lines;
    for (size_t pos = 0, nl; (nl = r->body.find('\n', pos)) != std::string::npos; pos = nl + 1)
        lines.push_back(json::parse(r->body.substr(pos, nl - pos)));
    QCOMPARE(lines.size(), size_t(4));
    std::string text;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        QCOMPARE(lines[i]["done"].get<bool>(), false);
        text += lines[i]["message"]["content"].get<std::string>();
    }
    QCOMPARE(QString::fromStdString(text), QString("t0 t1 t2 "));
    const json& last = lines.back();
    QCOMPARE(last["done"].get<bool>(), true);
    QCOMPARE(QString::fromStdString(last["done_reason"]), QString("stop"));
    QCOMPARE(last["eval_count"].get<int>(), 3);
    QVERIFY(last["prompt_eval_count"].get<int>() > 0);
    QVERIFY(last["created_at"].get<std::string>().back() == 'Z');

    r = h.post("/api/generate", R"({"model":"stories260K:latest","prompt":"Once","raw":true,"stream":false,
        "options":{"temperature":0,"num_predict":2,"seed":3,"top_k":5}})");
    QCOMPARE(r->status, 200);
    json g = body(r);
    QCOMPARE(QString::fromStdString(g["response"]), QString("t0 t1 "));
    QCOMPARE(QString::fromStdString(g["done_reason"]), QString("length"));
    const GenerationRequest sent = h.backend->submitted().back();
    QCOMPARE(sent.sampling.temperature, 0.0f);
    QCOMPARE(sent.sampling.topK, 5);
    QCOMPARE(sent.maxTokens, 2);
    // The returned context continues the conversation: its tokens come first next time.
    const auto context = g["context"].get<std::vector<int>>();
    QVERIFY(context.size() > 2);
    r = h.post("/api/generate", json({{"prompt", " again"}, {"raw", true}, {"stream", false}, {"context", context}}).dump());
    QCOMPARE(r->status, 200);
    const auto next = h.backend->submitted().back().promptTokens;
    QVERIFY(next.size() > context.size());
    QVERIFY(std::equal(context.begin(), context.end(), next.begin()));
    // An empty prompt only "loads" the model.
    g = body(h.post("/api/generate", R"({"model":"stories260K"})"));
    QCOMPARE(QString::fromStdString(g["done_reason"]), QString("load"));
    // Ollama-shaped errors.
    r = h.post("/api/chat", R"({"model":"nope","messages":[{"role":"user","content":"x"}]})");
    QCOMPARE(r->status, 404);
    QVERIFY(body(r)["error"].is_string());
    QCOMPARE(h.post("/api/chat", R"({"messages":[{"role":"user","content":"x","images":["aGk="]}]})")->status, 400);
    QCOMPARE(h.post("/api/generate", R"({"prompt":"x","options":{"temperature":"warm"}})")->status, 400);
}

void ApiServerTest::keysRequiredWhenAsked() {
    ServerConfig cfg;
    cfg.requireKey = true;
    Harness h(cfg, {"secret-one"});
    expectOpenAiError(h.post("/v1/chat/completions", kChat), 401, "invalid_api_key");
    expectOpenAiError(h.post("/v1/chat/completions", kChat, {{"Authorization", "Bearer wrong"}}), 401, "invalid_api_key");
    QCOMPARE(h.post("/v1/chat/completions", kChat, {{"Authorization", "Bearer secret-one"}})->status, 200);
    QCOMPARE(h.post("/v1/chat/completions", kChat, {{"x-api-key", "secret-one"}})->status, 200);
    QCOMPARE(h.client().Get("/health")->status, 200);  // health needs no key
    QCOMPARE(h.client().Get("/v1/models")->status, 401);
    QCOMPARE(h.client().Get("/api/tags")->status, 401);
    QVERIFY(body(h.client().Get("/api/tags"))["error"].is_string());
    bool named = false;
    for (const auto& e : h.entries()) named |= e.keyName == "file-key-1";
    QVERIFY(named);
    // The key's name is the engine's fairness key.
    QCOMPARE(QString::fromStdString(h.backend->submitted().back().user), QString("key:file-key-1"));
}

void ApiServerTest::lanBindNeedsAKey() {
    auto tok = Tokenizer::fromGguf(test::modelPath("stories260K.gguf"));
    QVERIFY(tok.ok());
    ServerConfig cfg;
    cfg.host = "0.0.0.0";
    cfg.port = 0;
    ApiServer refused(cfg, std::make_shared<KeyAuthenticator>());
    const Status st = refused.start();
    QVERIFY(!st.ok());
    QVERIFY2(st.error().message.find("hearth-cli keys create") != std::string::npos, st.error().message.c_str());
    auto auth = std::make_shared<KeyAuthenticator>();
    auth->setFileKeys({"lan-key"}, {});
    ApiServer lan(cfg, auth);
    QVERIFY(lan.start().ok());
    lan.setModel(std::make_shared<test::FakeBackend>(*tok, test::modelPath("stories260K.gguf")));
    httplib::Client c("127.0.0.1", lan.port());
    expectOpenAiError(c.Post("/v1/chat/completions", kChat, "application/json"), 401, "invalid_api_key");
    QCOMPARE(c.Post("/v1/chat/completions", {{"Authorization", "Bearer lan-key"}}, kChat, "application/json")->status, 200);
}

void ApiServerTest::perKeyConcurrencyAndTokenLimits() {
    ServerConfig cfg;
    cfg.requireKey = true;
    ApiKeyLimits limits;
    limits.maxConcurrent = 1;
    limits.tokensPerMinute = 40;
    Harness h(cfg, {"k"}, limits);
    const httplib::Headers key = {{"Authorization", "Bearer k"}};
    // A slow request holds the key's only slot...
    std::thread slow([&] { h.post("/v1/completions", R"({"prompt":"[delay:700] [stop:2]"})", key); });
    QTRY_COMPARE_WITH_TIMEOUT(h.backend->runningCount(), 1, 5000);
    auto r = h.post("/v1/completions", R"({"prompt":"x"})", key);
    expectOpenAiError(r, 429, "concurrency_limit_exceeded");
    QVERIFY(r->has_header("Retry-After"));
    slow.join();
    // ...and tokens add up per minute: prompt + completion.
    int status = 200;
    for (int i = 0; i < 20 && status == 200; ++i) status = h.post("/v1/completions", R"({"prompt":"Once upon a time","max_tokens":6})", key)->status;
    QCOMPARE(status, 429);
    expectOpenAiError(h.post("/v1/completions", R"({"prompt":"x"})", key), 429, "rate_limit_exceeded");
}

void ApiServerTest::serverCapacityIs503() {
    ServerConfig cfg;
    cfg.maxInFlight = 1;
    Harness h(cfg);
    std::thread slow([&] { h.post("/v1/completions", R"({"prompt":"[delay:700] [stop:1]"})"); });
    QTRY_COMPARE_WITH_TIMEOUT(h.backend->runningCount(), 1, 5000);
    expectOpenAiError(h.post("/v1/completions", R"({"prompt":"x"})"), 503, "server_busy");
    QCOMPARE(h.client().Get("/health")->status, 200);
    slow.join();
    QCOMPARE(h.post("/v1/completions", R"({"prompt":"x"})")->status, 200);
}

void ApiServerTest::corsOnlyForListedOrigins() {
    {
        Harness closed;
        auto r = closed.client().Get("/v1/models", {{"Origin", "http://evil.example"}});
        QVERIFY(!r->has_header("Access-Control-Allow-Origin"));
    }
    ServerConfig cfg;
    cfg.allowedOrigins = {"http://app.example"};
    Harness h(cfg);
    auto r = h.client().Get("/v1/models", {{"Origin", "http://app.example"}});
    QCOMPARE(QString::fromStdString(r->get_header_value("Access-Control-Allow-Origin")), QString("http://app.example"));
    r = h.client().Get("/v1/models", {{"Origin", "http://evil.example"}});
    QVERIFY(!r->has_header("Access-Control-Allow-Origin"));
    r = h.client().Options("/v1/chat/completions", {{"Origin", "http://app.example"}, {"Access-Control-Request-Method", "POST"}});
    QCOMPARE(r->status, 204);
    QVERIFY(r->get_header_value("Access-Control-Allow-Headers").find("Authorization") != std::string::npos);
    r = h.post("/v1/embeddings", "{}", {{"Origin", "http://app.example"}});  // errors carry it too
    QCOMPARE(r->status, 404);
    QVERIFY(r->has_header("Access-Control-Allow-Origin"));
}

void ApiServerTest::keepAliveCommentsDuringLongPrefill() {
    ServerConfig cfg;
    cfg.keepAliveMs = 100;
    Harness h(cfg);
    auto r = h.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"[delay:800] [stop:1]"}],"stream":true})");
    QCOMPARE(r->status, 200);
    QVERIFY2(r->body.find(": keep-alive\n\n") != std::string::npos, r->body.c_str());
    QVERIFY(r->body.find(": keep-alive") < r->body.find("data: "));
    QCOMPARE(QString::fromStdString(sseData(r->body).back()), QString("[DONE]"));
}

void ApiServerTest::disconnectMidStreamCancels() {
    Harness h;
    httplib::Client c = h.client();
    httplib::Request req;
    req.method = "POST";
    req.path = "/v1/chat/completions";
    req.body = R"({"messages":[{"role":"user","content":"[stop:100000]"}],"stream":true})";
    req.set_header("Content-Type", "application/json");
    size_t received = 0;
    req.content_receiver = [&](const char*, size_t len, uint64_t, uint64_t) {
        received += len;
        return received < 2000;  // hang up after a few chunks
    };
    auto r = c.send(req);
    QVERIFY(received >= 2000);
    QTRY_VERIFY_WITH_TIMEOUT(h.backend->cancelledCount() == 1, 3000);
    QTRY_COMPARE_WITH_TIMEOUT(h.backend->runningCount(), 0, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!h.entries().empty() && h.entries().back().status == 499, 3000);
    QCOMPARE(h.post("/v1/chat/completions", kChat)->status, 200);  // and it keeps serving
}

void ApiServerTest::metricsArePrometheusText() {
    Harness h;
    QCOMPARE(h.post("/v1/chat/completions", kChat)->status, 200);
    auto r = h.client().Get("/metrics");
    QCOMPARE(r->status, 200);
    const std::string& m = r->body;
    QVERIFY(m.find("# TYPE hearth_kv_usage_ratio gauge") != std::string::npos);
    QVERIFY(m.find("hearth_kv_usage_ratio{model=\"stories260K\"} 0.07") != std::string::npos);
    QVERIFY(m.find("hearth_http_responses_total{model=\"stories260K\",status=\"200\"} 1") != std::string::npos);
    QVERIFY(m.find("hearth_prefix_hit_ratio") != std::string::npos);
}

namespace {
std::string readTemplate(const std::string& name) {
    QFile f(QString::fromStdString(test::testdataPath("chat_templates/" + name)));
    if (!f.open(QIODevice::ReadOnly)) qFatal("no template %s", name.c_str());
    return f.readAll().toStdString();
}
}  // namespace

void ApiServerTest::modelChatTemplateIsUsed() {
    {
        Harness h({}, {}, {}, false);
        h.backend->setChatTemplate(readTemplate("google-gemma-2-2b-it.jinja"));
        h.server->setModel(h.backend);
        auto r = h.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},
            {"role":"user","content":"Tell me more"}]})");
        QCOMPARE(r->status, 200);
        const auto tok = h.backend->tokenizer();
        const auto ids = h.backend->submitted().back().promptTokens;
        QCOMPARE(ids[0], tok->bos());  // the template's own BOS text became the BOS token...
        QVERIFY(ids[1] != tok->bos());  // ...and no second one was added
        const std::string prompt = tok->decode(ids);
        const std::string tail = "<start_of_turn>user\nTell me more<end_of_turn>\n<start_of_turn>model\n";
        QVERIFY2(prompt.size() > tail.size() && prompt.compare(prompt.size() - tail.size(), tail.size(), tail) == 0, prompt.c_str());
        QVERIFY(h.backend->submitted().back().stop.empty());  // the fallback's stop strings are not added
        // The template's own checks surface as 400s.
        expectOpenAiError(h.post("/v1/chat/completions", R"({"messages":[{"role":"system","content":"x"},{"role":"user","content":"y"}]})"),
                          400, "template_error", "messages");
    }
    Harness h({}, {}, {}, false);
    h.backend->setChatTemplate(readTemplate("Qwen-Qwen2.5-7B-Instruct.jinja"));
    h.backend->setContextLength(4096);  // the tool preamble is long in a 512-token vocabulary
    h.server->setModel(h.backend);
    auto r = h.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Weather?"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},
        {"role":"tool","tool_call_id":"c1","content":"sunny"}],
        "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]})");
    QVERIFY2(r->status == 200, r->body.c_str());
    const std::string prompt = h.backend->tokenizer()->decode(h.backend->submitted().back().promptTokens);
    QVERIFY2(prompt.find("<tools>") != std::string::npos && prompt.find("\"get_weather\"") != std::string::npos, prompt.c_str());
    QVERIFY2(prompt.find("\"city\": \"Oslo\"") != std::string::npos, prompt.c_str());  // arguments reached it as an object
    QVERIFY(prompt.find("<tool_response>\nsunny\n</tool_response>") != std::string::npos);
    QVERIFY(prompt.size() > 22 && prompt.compare(prompt.size() - 22, 22, "<|im_start|>assistant\n") == 0);
}

QTEST_GUILESS_MAIN(ApiServerTest)
#include "ApiServerTest.moc"
