// `musatop serve` under the floods a hostile user on a shared cluster can make:
// connects that send nothing, heads that never end, idle TLS sockets, clients that
// never read, wrong passwords by the dozen. Each time the scrapes that matter are
// answered, the agent's threads and descriptors stay within its limits, and GMI
// (the sampler) keeps working.
#include <gtest/gtest.h>
#include <crypt.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "musatop/net/base64.hpp"

#include "certificates.hpp"
#include "driver_tree.hpp"
#include "serve_process.hpp"
#include "test_support.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

namespace {

struct Figures {
    int answered = 0;  // with 200, out of `asked`
    int asked = 0;
    std::chrono::milliseconds p99{0};
};

// `scrape` `count` times in a row: how many got 200, and the 99th percentile time.
template <typename Scrape>
Figures scrapes(int count, Scrape scrape) {
    Figures out;
    std::vector<std::chrono::milliseconds> times;
    for (int i = 0; i < count; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const int status = scrape();
        times.push_back(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start));
        out.answered += status == 200;
        ++out.asked;
    }
    std::sort(times.begin(), times.end());
    out.p99 = times[std::min(times.size() - 1, times.size() * 99 / 100)];
    return out;
}

void report(const char* attack, const Figures& f) {
    std::cout << "flood figure: " << attack << ": " << f.answered << " of " << f.asked << " scrapes answered, p99 "
              << f.p99.count() << " ms\n";
}

// A field of /proc/PID/status ("Threads").
long status_field(pid_t pid, const std::string& name) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(name + ":", 0) == 0) return std::atol(line.c_str() + name.size() + 1);
    return -1;
}

long open_fds(pid_t pid) {
    long count = 0;
    std::error_code error;
    for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error);
         !error && it != std::filesystem::directory_iterator(); it.increment(error))
        ++count;
    return count;
}

// Opens connections as fast as it can while it lives, holding the newest `held`.
class ConnectFlood {
public:
    ConnectFlood(int port, std::size_t held, std::string first_bytes = {})
        : thread_([this, port, held, first_bytes] {
              std::deque<std::unique_ptr<RawConnection>> open;
              while (!stop_) {
                  open.push_back(std::make_unique<RawConnection>(port));
                  if (!first_bytes.empty()) open.back()->send(first_bytes);
                  ++made_;
                  if (open.size() > held) open.pop_front();
              }
          }) {}
    ~ConnectFlood() {
        stop_ = true;
        thread_.join();
    }
    long made() const { return made_; }

private:
    std::atomic<bool> stop_{false};
    std::atomic<long> made_{0};
    std::thread thread_;
};

// The agent's state under attack: bounded threads and descriptors, a working sampler.
void expect_bounded(const ServeProcess& serve, long fd_limit) {
    EXPECT_LE(status_field(serve.pid(), "Threads"), 12) << "threads grow with clients";
    EXPECT_LE(open_fds(serve.pid()), fd_limit);
    EXPECT_EQ(serve.log().find("Too many open files"), std::string::npos) << serve.log();
    EXPECT_EQ(serve.log().find("Cannot fork"), std::string::npos) << serve.log();
    EXPECT_EQ(serve.log().find("Resource temporarily unavailable"), std::string::npos) << serve.log();
}

class ServeFlood : public ::testing::Test {
protected:
    void SetUp() override {
        rlimit limit{};  // this test's own sockets
        ::getrlimit(RLIMIT_NOFILE, &limit);
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
        scenario.use_reference_fixtures();
    }
    Scenario scenario;
};

}  // namespace

TEST_F(ServeFlood, ConnectsThatSendNothingNeverDenyAScrapeNorGmi) {
    ServeProcess serve(scenario, {"--interval", "0.2"}, free_port(), 256);
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    const long before = status_field(serve.pid(), "Threads");
    Figures figures;
    {
        ConnectFlood flood(serve.port(), 600);
        ASSERT_TRUE(wait_for([&] { return flood.made() > 1000; }, 30s));
        figures = scrapes(30, [&] { return http_get(serve.port(), "/metrics").status; });
        expect_bounded(serve, 256);
        EXPECT_LE(status_field(serve.pid(), "Threads"), before + 1);
    }
    report("600 idle connects held", figures);
    EXPECT_EQ(figures.answered, 30);
    // The rounds went on: GMI was never short of a descriptor or a process.
    EXPECT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST_F(ServeFlood, AnAgentWith64DescriptorsKeepsItsSamplerAndItsScrapes) {
    ServeProcess serve(scenario, {"--interval", "0.1"}, free_port(), 64);
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < 200; ++i) idle.push_back(std::make_unique<RawConnection>(serve.port()));
    const auto figures = scrapes(30, [&] { return http_get(serve.port(), "/healthz").status; });
    report("200 idle sockets, 64 descriptors", figures);
    EXPECT_EQ(figures.answered, 30) << serve.log();  // 503 would say a round failed
    expect_bounded(serve, 64);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST_F(ServeFlood, HeadsThatNeverEndAndClientsThatNeverReadHoldNoSlot) {
    ServeProcess serve(scenario, {"--interval", "0.2"}, free_port(), 256);
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    std::vector<std::unique_ptr<RawConnection>> hostile;
    for (int i = 0; i < 150; ++i) {  // a slowloris' first bytes
        hostile.push_back(std::make_unique<RawConnection>(serve.port()));
        hostile.back()->send("GET /metr");
    }
    const auto slowloris = scrapes(30, [&] { return http_get(serve.port(), "/metrics").status; });
    report("150 heads never ended", slowloris);
    EXPECT_EQ(slowloris.answered, 30);
    std::string pipelined;
    for (int i = 0; i < 50; ++i) pipelined += "GET /api/v1/snapshot HTTP/1.1\r\nHost: x\r\n\r\n";
    for (int i = 0; i < 100; ++i) {  // never read what they asked for
        hostile.push_back(std::make_unique<RawConnection>(serve.port()));
        hostile.back()->send(pipelined);
    }
    const auto deaf = scrapes(30, [&] { return http_get(serve.port(), "/metrics").status; });
    report("100 clients not reading", deaf);
    EXPECT_EQ(deaf.answered, 30);
    expect_bounded(serve, 256);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST_F(ServeFlood, IdleTlsSocketsNeverDenyAScrape) {
    ASSERT_TRUE(protect(scenario)) << "openssl req failed";
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()},
                       free_port(), 256);
    ASSERT_TRUE(serve.listening()) << serve.log();
    const std::string ca = (scenario.dir() / "tls.crt").string();
    ASSERT_TRUE(wait_for([&] { return https_get(serve.port(), "/healthz", ca).status == 200; }));
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < 300; ++i) idle.push_back(std::make_unique<RawConnection>(serve.port()));
    const auto figures = scrapes(30, [&] { return https_get(serve.port(), "/healthz", ca).status; });
    report("300 idle TLS sockets", figures);
    EXPECT_EQ(figures.answered, 30);
    expect_bounded(serve, 256);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

// A user verified before is answered from the cache, never behind the bcrypt
// checks of a flood of wrong passwords, which queue apart and are refused past it.
TEST_F(ServeFlood, AVerifiedClientIsNeverBehindWrongPasswords) {
    const std::string hash = ::crypt("s3cret", ::crypt_gensalt("$2y$", 10, nullptr, 0));
    scenario.set("web.yml", "basic_auth_users:\n  prometheus: " + hash + "\n");
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    const std::string good = "Authorization: " + musatop::net::basic_authorization("prometheus", "s3cret") + "\r\n";
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/metrics", good).status == 200; }));
    std::vector<std::unique_ptr<RawConnection>> guesses;
    for (int i = 0; i < 64; ++i) {
        guesses.push_back(std::make_unique<RawConnection>(serve.port()));
        guesses.back()->send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: " +
                             musatop::net::basic_authorization("prometheus", "guess" + std::to_string(i)) + "\r\n\r\n");
    }
    const auto figures = scrapes(30, [&] { return http_get(serve.port(), "/metrics", good).status; });
    report("64 wrong passwords at once, a verified user", figures);
    EXPECT_EQ(figures.answered, 30);
    int refused = 0, busy = 0;
    for (const auto& guess : guesses) {  // every guess is answered, none waits for ever
        bool closed = false;
        const std::string reply = guess->read_until_closed(20s, closed);
        refused += reply.rfind("HTTP/1.1 401", 0) == 0;
        busy += reply.rfind("HTTP/1.1 503", 0) == 0;
    }
    EXPECT_GT(refused, 0);
    EXPECT_EQ(refused + busy, 64);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

// A driver file that blocks on read (issue 33 #5) costs the driver's readings,
// never the agent: it answers and stops on SIGTERM at once.
TEST_F(ServeFlood, ABlockingDriverFileNeverHoldsTheAgent) {
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu01", 1, "0000:07:00.0");
    const auto fifo = scenario.dir() / "driver-root/proc/driver/musa/gpu01/status";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ::setenv("MUSATOP_DRIVER_ROOT", (scenario.dir() / "driver-root").c_str(), 1);
    ServeProcess serve(scenario, {"--interval", "0.2", "--timeout", "1"});
    ::unsetenv("MUSATOP_DRIVER_ROOT");
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    const auto snapshot = http_get(serve.port(), "/api/v1/snapshot");
    EXPECT_NE(snapshot.body.find("did not answer within 1.0 s"), std::string::npos);
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s);
}
