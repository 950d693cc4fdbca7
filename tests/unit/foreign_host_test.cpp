// What a binary needs on a host it was not built for: user names the local files
// lack (asked of the host's getent), a UTF-8 locale asked for but not installed,
// the CA bundle where that distribution keeps it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "musatop/collection/procfs/user_names.hpp"
#include "musatop/net/tls.hpp"
#include "musatop/tui/locale_setup.hpp"

namespace fs = std::filesystem;
using musatop::procfs::UserNames;

namespace {

// A folder holding an executable `getent` with `body` as its shell script.
fs::path getent_folder(const std::string& name, const std::string& body) {
    const fs::path dir = fs::temp_directory_path() / ("musatop-getent-" + name + "-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "getent") << "#!/bin/sh\n" << body;
    fs::permissions(dir / "getent", fs::perms::owner_all);
    return dir;
}

// A UID no /etc/passwd of a test machine has.
constexpr std::uint32_t kLdapUid = 3999871;

}  // namespace

TEST(GetentPasswd, LinesIntoNamesSanitised) {
    const auto names = musatop::procfs::parse_getent_passwd(
        "alice:x:1000:1000::/home/alice:/bin/bash\n"
        "ev\x1b[2Jil:*:1001:1001:::\n"
        "broken line\n:x:1002:1:::\nbob:x:notanumber:1:::\n" +
        std::string(100, 'l') + ":x:1003:1:::\n");
    EXPECT_EQ(names.at(1000), "alice");
    EXPECT_EQ(names.at(1001), "ev[2Jil");  // no escape reaches a terminal
    EXPECT_EQ(names.count(1002), 0u);
    EXPECT_EQ(names.at(1003).size(), 64u);
    EXPECT_EQ(names.size(), 3u);
}

TEST(UserNamesTest, FilesFirstThenOneGetentCallForTheRest) {
    const auto dir =
        getent_folder("ldap",
                      "echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n"
                      "for uid in \"$@\"; do [ \"$uid\" = 3999871 ] && echo ldapuser:*:3999871:100:::; done\n"
                      "exit 2\n");
    UserNames names(dir.string());
    names.resolve({0, kLdapUid, kLdapUid + 1});
    EXPECT_EQ(names.name(0), "root");  // /etc/passwd, no getent for it
    EXPECT_EQ(names.name(kLdapUid), "ldapuser");
    EXPECT_EQ(names.name(kLdapUid + 1), std::to_string(kLdapUid + 1));  // nobody knows it: a number
    names.resolve({kLdapUid, kLdapUid + 1});                            // cached: no second call
    std::ifstream calls(dir / "calls");
    std::string line, all;
    int count = 0;
    while (std::getline(calls, line)) all += line, ++count;
    EXPECT_EQ(count, 1) << all;
    EXPECT_EQ(all, "passwd " + std::to_string(kLdapUid) + " " + std::to_string(kLdapUid + 1));
    fs::remove_all(dir);
}

TEST(UserNamesTest, AHangingGetentIsKilledAndTheUidShownAsANumber) {
    const auto dir = getent_folder("hang", "sleep 30\n");
    UserNames names(dir.string(), std::chrono::milliseconds(300));
    const auto started = std::chrono::steady_clock::now();
    names.resolve({kLdapUid});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_EQ(names.name(kLdapUid), std::to_string(kLdapUid));
    UserNames without(std::string{});  // no getent at all
    without.resolve({kLdapUid});
    EXPECT_EQ(without.name(kLdapUid), std::to_string(kLdapUid));
    fs::remove_all(dir);
}

TEST(LocaleSetup, TheFirstVariableSetDecidesWhetherUtf8IsAskedFor) {
    std::map<std::string, std::string> env;
    const auto asks = [&] {
        return musatop::tui::environment_asks_for_utf8([&](const char* name) -> const char* {
            const auto found = env.find(name);
            return found == env.end() ? nullptr : found->second.c_str();
        });
    };
    EXPECT_FALSE(asks());
    env["LANG"] = "en_US.UTF-8";
    EXPECT_TRUE(asks());
    env["LC_CTYPE"] = "C";  // before LANG
    EXPECT_FALSE(asks());
    env["LC_ALL"] = "zh_CN.utf8";  // before both
    EXPECT_TRUE(asks());
    env["LC_ALL"] = "";  // empty is unset
    EXPECT_FALSE(asks());
}

TEST(CaBundle, WhereEachDistributionKeepsIt) {
    const fs::path root = fs::temp_directory_path() / ("musatop-ca-" + std::to_string(::getpid()));
    const auto none = [](const char*) -> const char* { return nullptr; };
    fs::create_directories(root / "etc/pki/tls/certs");
    std::ofstream(root / "etc/pki/tls/certs/ca-bundle.crt") << "pem\n";  // RHEL's
    EXPECT_EQ(musatop::net::system_ca_bundle(root.string(), "/usr/lib/ssl/cert.pem", none),
              (root / "etc/pki/tls/certs/ca-bundle.crt").string());
    // OpenSSL's own default exists: it is read anyway, nothing more to load.
    fs::create_directories(root / "usr/lib/ssl");
    std::ofstream(root / "usr/lib/ssl/cert.pem") << "pem\n";
    EXPECT_FALSE(musatop::net::system_ca_bundle(root.string(), "/usr/lib/ssl/cert.pem", none));
    // SSL_CERT_FILE says where: OpenSSL reads it.
    fs::remove(root / "usr/lib/ssl/cert.pem");
    EXPECT_FALSE(musatop::net::system_ca_bundle(
        root.string(), "/usr/lib/ssl/cert.pem",
        [](const char* name) -> const char* { return std::string(name) == "SSL_CERT_FILE" ? "/x.pem" : nullptr; }));
    fs::remove_all(root / "etc");
    EXPECT_FALSE(musatop::net::system_ca_bundle(root.string(), "/usr/lib/ssl/cert.pem", none));
    fs::remove_all(root);
}
