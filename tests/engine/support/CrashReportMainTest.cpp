// The engine tests' main (CrashReportMain.cpp) names the running test and prints a symbolized stack
// when a test dies of a fatal signal, and the process still dies of that signal. The death tests use
// the default "fast" style: the child is forked inside the running test, as a real crash would be.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdlib>

void crashInsideANamedFunction(volatile int* where);

// External linkage and no inlining or cloning, so that the name is in the executable's dynamic
// symbols (the tests link with ENABLE_EXPORTS) and therefore on the printed stack.
[[gnu::noipa]] void crashInsideANamedFunction(volatile int* where) {
    *where = 1;
}

TEST(CrashReport, SegfaultNamesTheTestAndTheFunction) {
    EXPECT_EXIT(crashInsideANamedFunction(nullptr), testing::KilledBySignal(SIGSEGV),
                "fatal SIGSEGV \\(11\\) in CrashReport\\.SegfaultNamesTheTestAndTheFunction;"
                "(.|\n)*crashInsideANamedFunction(.|\n)*end of stack");
}

TEST(CrashReport, AbortIsReportedAndStillAborts) {
    EXPECT_EXIT(std::abort(), testing::KilledBySignal(SIGABRT),
                "fatal SIGABRT \\(6\\) in CrashReport\\.AbortIsReportedAndStillAborts;(.|\n)*end of stack");
}
