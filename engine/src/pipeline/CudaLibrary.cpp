#include "pipeline/CudaLibrary.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace hearth {
namespace {

constexpr const char* kLibName = "libhearth-cuda.so";

std::string executableDir() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) return {};
    std::string p(buf, static_cast<size_t>(n));
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

std::vector<std::string> candidates() {
    std::vector<std::string> c;
    if (const char* env = std::getenv("HEARTH_CUDA_LIB"); env && *env) c.emplace_back(env);
    const std::string dir = executableDir();
    if (!dir.empty()) {
        c.push_back(dir + "/" + kLibName);
        c.push_back(dir + "/../lib/" + kLibName);
    }
    c.emplace_back(kLibName);  // the loader's own search path (LD_LIBRARY_PATH, ldconfig)
    return c;
}

}  // namespace

Result<std::shared_ptr<CudaLibrary>> CudaLibrary::load() {
    std::string tried;
    for (const std::string& path : candidates()) {
        dlerror();
        void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* e = dlerror();
            tried += "\n  " + path + ": " + (e ? e : "not loadable");
            continue;
        }
        auto fn = reinterpret_cast<HearthCudaApiFn>(::dlsym(h, "hearth_cuda_api"));
        const HearthCudaApi* api = fn ? fn(kHearthCudaAbi) : nullptr;
        if (!api || api->abiVersion != kHearthCudaAbi) {
            ::dlclose(h);
            tried += "\n  " + path + ": built for another engine version (ABI mismatch)";
            continue;
        }
        return std::shared_ptr<CudaLibrary>(new CudaLibrary(h, api, path));
    }
    return makeError(ErrorCode::Unavailable,
                     std::string("the CUDA backend (") + kLibName +
                         ") could not be loaded; set HEARTH_CUDA_LIB to its path, or run on the CPU (no devices). Tried:" +
                         tried);
}

CudaLibrary::~CudaLibrary() {
    if (handle_) ::dlclose(handle_);
}

}  // namespace hearth
