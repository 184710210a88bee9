// main() of every engine test executable: GoogleTest's usual main, plus a report when the process
// dies of a fatal signal. A crash on a machine we reach only for minutes (the GPU machine, under
// compute-sanitizer) must say which test was running and where, because it may not come again;
// without this, the log ends at "[ RUN ]" and the signal number.
//
// The handler runs on its own stack (a stack overflow still reports), uses only async-signal-safe
// calls (write, backtrace_symbols_fd on a preloaded libgcc) and then re-raises the signal with its
// default action, so exit statuses, core dumps and death tests see the same death as before.
#include <gtest/gtest.h>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

// The running test's full name; written between tests by the listener, read by the handler.
char g_running[512] = "(before the first test)";

void writeText(const char* s) {
    size_t n = std::strlen(s);
    while (n > 0) {
        const ssize_t w = ::write(STDERR_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<size_t>(w);
    }
}

const char* signalName(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGABRT: return "SIGABRT";
        default: return "signal";
    }
}

extern "C" void reportFatalSignal(int sig) {
    char digits[8];
    char* number = digits + sizeof digits;  // the decimal digits, written backwards
    *--number = '\0';
    for (int v = sig; v > 0 || *number == '\0'; v /= 10) *--number = static_cast<char>('0' + v % 10);
    writeText("\n*** fatal ");
    writeText(signalName(sig));
    writeText(" (");
    writeText(number);
    writeText(") in ");
    writeText(g_running);
    writeText("; stack, innermost first:\n");
    void* frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    writeText("*** end of stack\n");
    ::raise(sig);  // SA_RESETHAND put the default action back
}

void installFatalSignalReport() {
    void* warmup[1];
    backtrace(warmup, 1);  // loads libgcc's unwinder now, not inside the handler
    static char altStack[64 * 1024];
    stack_t ss{};
    ss.ss_sp = altStack;
    ss.ss_size = sizeof altStack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = reportFatalSignal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

class RunningTestRecorder : public testing::EmptyTestEventListener {
    void OnTestStart(const testing::TestInfo& info) override {
        std::snprintf(g_running, sizeof g_running, "%s.%s", info.test_suite_name(), info.name());
    }
    void OnTestEnd(const testing::TestInfo&) override {
        std::snprintf(g_running, sizeof g_running, "(between tests)");
    }
};

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    installFatalSignalReport();
    testing::UnitTest::GetInstance()->listeners().Append(new RunningTestRecorder);
    return RUN_ALL_TESTS();
}
