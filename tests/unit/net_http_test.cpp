// The net layer's HTTP/1.1 messages: the requests musatop writes, the heads the
// agent reads, the answers the client reads (whole and split at every byte),
// base64 and Basic credentials, URLs, gzip.
#include <gtest/gtest.h>

#include <map>

#include "musatop/net/base64.hpp"
#include "musatop/net/endpoint.hpp"
#include "musatop/net/gzip.hpp"
#include "musatop/net/http_client.hpp"
#include "musatop/net/http_request.hpp"
#include "musatop/net/http_response.hpp"

using namespace musatop::net;
using Progress = HttpResponseReader::Progress;

namespace {

// Feeds `text` in pieces of `step` bytes; the state after the last piece.
Progress read_in_steps(HttpResponseReader& reader, const std::string& text, std::size_t step) {
    reader.reset();
    Progress state = Progress::reading;
    for (std::size_t at = 0; at < text.size() && state == Progress::reading; at += step)
        state = reader.feed(std::string_view(text).substr(at, step));
    return state;
}

}  // namespace

TEST(HttpRequest, GetWithHostAndOptionalBasicAuth) {
    Request get;
    get.target = "/api/v1/snapshot";
    get.headers = {{"User-Agent", "musatop-cluster"}};
    EXPECT_EQ(write_request(get, Endpoint{false, "gpu01", 9499}),
              "GET /api/v1/snapshot HTTP/1.1\r\nHost: gpu01:9499\r\nUser-Agent: musatop-cluster\r\n\r\n");
    get.headers = {{"Authorization", basic_authorization("Aladdin", "open sesame")}};
    const std::string with_auth = write_request(get, Endpoint{false, "::1", 80});
    EXPECT_NE(with_auth.find("\r\nHost: [::1]:80\r\n"), std::string::npos) << with_auth;
    EXPECT_NE(with_auth.find("\r\nAuthorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n"), std::string::npos);
    EXPECT_EQ(basic_authorization("", ""), "Basic Og==");
    EXPECT_EQ(basic_authorization("ab", ""), "Basic YWI6");
    EXPECT_EQ(basic_authorization("a", "bc"), "Basic YTpiYw==");
}

TEST(HttpRequest, ProxyFormsAndFormBodies) {
    Request query;
    query.method = "POST";
    query.target = "/api/v1/query";
    query.body = "query=" + form_encode("up{job=\"a b\"}");
    EXPECT_EQ(query.body, "query=up%7Bjob%3D%22a%20b%22%7D");
    const std::string through_proxy = write_request(query, Endpoint{false, "prom", 9090}, true);
    EXPECT_EQ(through_proxy.rfind("POST http://prom:9090/api/v1/query HTTP/1.1\r\nHost: prom:9090\r\n", 0), 0u)
        << through_proxy;
    EXPECT_NE(through_proxy.find("Content-Length: 31\r\n\r\nquery="), std::string::npos) << through_proxy;
    EXPECT_EQ(write_connect(Endpoint{true, "fe80::1", 443}),
              "CONNECT [fe80::1]:443 HTTP/1.1\r\nHost: [fe80::1]:443\r\n\r\n");
}

TEST(RequestHead, ParsedWithTheRulesTheAgentApplies) {
    const auto head = parse_request_head(
        "GET /api/v1/snapshot?x=1 HTTP/1.1\r\nHost: a\r\nAccept-Encoding: br, GZip;q=0.5\r\n"
        "If-None-Match: \"1\"\r\n\r\n");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->method, "GET");
    EXPECT_EQ(head->path, "/api/v1/snapshot");
    EXPECT_EQ(head->target, "/api/v1/snapshot?x=1");
    EXPECT_EQ(head->header("if-none-match"), "\"1\"");
    EXPECT_TRUE(head->accepts_gzip());
    EXPECT_TRUE(head->keep_alive());
    const auto refused_gzip = parse_request_head("GET / HTTP/1.0\r\nAccept-Encoding: gzip;q=0\r\n\r\n");
    ASSERT_TRUE(refused_gzip);
    EXPECT_FALSE(refused_gzip->accepts_gzip());
    EXPECT_FALSE(refused_gzip->keep_alive());  // HTTP/1.0 without keep-alive
    EXPECT_FALSE(parse_request_head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")->keep_alive());
    EXPECT_TRUE(parse_request_head("GET / HTTP/1.0\n\n"));  // 1.0 needs no Host
    for (const std::string& bad : std::vector<std::string>{
             "GET /\r\n\r\n", "GET / HTTP/2\r\n\r\n", "G\x01T / HTTP/1.1\r\nHost: a\r\n\r\n",
             "GET / HTTP/1.1\r\nHost : x\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nno colon\r\n\r\n",
             "GET  HTTP/1.1\r\nHost: a\r\n\r\n",
             // No Host, two of them, a bare CR or a NUL in a value (RFC 9112 §2.2, §3.2).
             "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",
             "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\rX-Evil: 1\r\n\r\n",
             std::string("GET / HTTP/1.1\r\nHost: a\r\nX: b\0c\r\n\r\n", 35)})
        EXPECT_FALSE(parse_request_head(bad)) << bad;
}

TEST(BasicCredentials, SchemeInAnyCaseAndNoControlCharacters) {
    const auto c = parse_basic_authorization("basic " + encode_base64("user:pa:ss"));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->user, "user");
    EXPECT_EQ(c->password, "pa:ss");
    EXPECT_TRUE(parse_basic_authorization("BASIC " + encode_base64("u:p")));
    EXPECT_FALSE(parse_basic_authorization("Basic " + encode_base64(std::string("u:s3cret\0junk", 13))));
    EXPECT_FALSE(parse_basic_authorization("Basic " + encode_base64("u\x1b:p")));
    EXPECT_FALSE(parse_basic_authorization("Basicx" + encode_base64("u:p")));
    for (std::string bytes : {"", "a", "ab", "abc", "abcd", "\xff\x00\x80"})
        EXPECT_EQ(decode_base64(encode_base64(bytes)), bytes);
}

TEST(Url, SchemesPortsPathsAndNoCredentials) {
    const auto plain = parse_url("http://prom:9090/", "--prometheus");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_EQ(plain->endpoint, (Endpoint{false, "prom", 9090}));
    EXPECT_EQ(plain->path, "");
    const auto tls = parse_url("HTTPS://[::1]/prom/", "--prometheus");
    ASSERT_TRUE(tls.ok()) << tls.error();
    EXPECT_EQ(tls->endpoint, (Endpoint{true, "::1", 443}));
    EXPECT_EQ(tls->path, "/prom");
    const auto secret = parse_url("http://alice:hunter2@prom:9090", "--prometheus");
    ASSERT_FALSE(secret.ok());
    EXPECT_EQ(secret.error().find("hunter2"), std::string::npos) << secret.error();
    EXPECT_NE(secret.error().find("--prometheus: "), std::string::npos);
    for (const char* bad : {"ftp://x", "http://", "http://x:0", "http://x:70000", "http://x:", "http://[::1",
                            "http://x/a?b", "http://[zz]:1"})
        EXPECT_FALSE(parse_url(bad, "--x").ok()) << bad;
}

TEST(Gzip, RoundTripAndDamage) {
    const std::string text(100000, 'm');
    const auto packed = gzip_compress(text);
    ASSERT_TRUE(packed);
    EXPECT_LT(packed->size(), text.size() / 50);
    EXPECT_EQ(gzip_decompress(*packed, text.size()), text);
    EXPECT_FALSE(gzip_decompress(*packed, text.size() - 1));  // over the limit
    EXPECT_FALSE(gzip_decompress(packed->substr(0, packed->size() / 2), text.size()));
    EXPECT_FALSE(gzip_decompress("not gzip", 100));
}

TEST(HttpResponse, ContentLengthBodyAtEverySplit) {
    const std::string answer =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 11\r\n\r\n{\"a\": true}";
    for (std::size_t step = 1; step <= answer.size(); ++step) {
        HttpResponseReader reader(1 << 20, 16);
        ASSERT_EQ(read_in_steps(reader, answer, step), Progress::done) << step;
        EXPECT_EQ(reader.status(), 200);
        EXPECT_EQ(reader.body(), "{\"a\": true}");
        EXPECT_GE(reader.body().capacity(), reader.body().size() + 16);  // the spare bytes asked for
        EXPECT_TRUE(reader.keep_alive());
    }
}

TEST(HttpResponse, ChunkedBodyWithExtensionsAndTrailersAtEverySplit) {
    const std::string answer =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\nA\r\n, chunked!\r\n0\r\nX-T: "
        "1\r\n\r\n";
    for (std::size_t step = 1; step <= answer.size(); ++step) {
        HttpResponseReader reader(1 << 20);
        ASSERT_EQ(read_in_steps(reader, answer, step), Progress::done) << step;
        EXPECT_EQ(reader.body(), "hello, chunked!");
        EXPECT_TRUE(reader.keep_alive());
    }
}

TEST(HttpResponse, ConnectionRulesAndBodiesThatEndWithTheConnection) {
    HttpResponseReader reader(1 << 20);
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno", 7),
              Progress::done);
    EXPECT_EQ(reader.status(), 404);
    EXPECT_FALSE(reader.keep_alive());
    // HTTP/1.0 without a length: the body is what comes until the node closes.
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.0 200 OK\r\n\r\n<html>", 3), Progress::reading);
    EXPECT_EQ(reader.end_of_input(), Progress::done);
    EXPECT_EQ(reader.body(), "<html>");
    EXPECT_FALSE(reader.keep_alive());
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 5),
              Progress::done);
    EXPECT_TRUE(reader.keep_alive());
    // 100 Continue goes before the answer; 204 has no body.
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", 4), Progress::done);
    EXPECT_EQ(reader.status(), 204);
    // Bytes after the answer: the connection is not used again.
    EXPECT_EQ(reader.feed(""), Progress::done);
    reader.reset();
    EXPECT_EQ(reader.feed("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1"), Progress::done);
    EXPECT_FALSE(reader.keep_alive());
}

TEST(HttpResponse, BadAnswersFailWithAReason) {
    const std::pair<const char*, const char*> cases[] = {
        {"SSH-2.0-OpenSSH_9.2\r\n", "not an HTTP answer: no status line (an HTTP/0.9 server, or not HTTP at all)"},
        {"HTTP/1.1 2x0 OK\r\n", "not an HTTP answer"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n", "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
         "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "the answer's transfer encoding is not chunked"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "the answer's chunk size is not a number"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
         "a chunk of the answer does not end where it says"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 2048\r\n\r\n", "the answer exceeded 0 MiB"},
        {"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello", "the answer has a malformed header line"},
        {"HTTP/1.1 200 OK\r\n Folded: x\r\n\r\n", "the answer has a malformed header line"},
    };
    for (const auto& [answer, why] : cases) {
        HttpResponseReader reader(1024);
        EXPECT_EQ(read_in_steps(reader, answer, 1), Progress::failed) << answer;
        EXPECT_EQ(reader.error(), why) << answer;
        EXPECT_FALSE(reader.keep_alive());
    }
    HttpResponseReader chunks(8);
    EXPECT_EQ(read_in_steps(chunks, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n123456789\r\n", 4),
              Progress::failed);
    EXPECT_TRUE(chunks.too_large());
    HttpResponseReader endless(1 << 20);
    EXPECT_EQ(read_in_steps(endless, "HTTP/1.1 200 OK\r\nX: " + std::string(70 << 10, 'a'), 4096), Progress::failed);
    EXPECT_EQ(endless.error(), "the answer's headers exceed 64 KiB");
    // HTTP/0.9: the body straight away, no status line; said at its first bytes,
    // not after 64 KiB of "headers".
    HttpResponseReader old_http(1 << 20);
    EXPECT_EQ(read_in_steps(old_http, "{\"schema_version\": 1, \"pad\": \"" + std::string(70 << 10, 'a'), 4096),
              Progress::failed);
    EXPECT_EQ(old_http.error(), "not an HTTP answer: no status line (an HTTP/0.9 server, or not HTTP at all)");
    HttpResponseReader cut(1 << 20);
    EXPECT_EQ(read_in_steps(cut, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 100), Progress::reading);
    EXPECT_EQ(cut.end_of_input(), Progress::failed);
    EXPECT_EQ(cut.error(), "the node closed the connection in the middle of its answer");
    cut.reset();
    EXPECT_FALSE(cut.started());
    EXPECT_EQ(cut.end_of_input(), Progress::failed);
    EXPECT_EQ(cut.error(), "the node closed the connection without answering");
}

TEST(HttpResponse, ATlsRecordWhereHttpWasAskedIsNamed) {
    HttpResponseReader reader(1 << 20);
    EXPECT_EQ(reader.feed(std::string("\x15\x03\x03\x00\x02\x02\x46", 7)), Progress::failed);
    EXPECT_EQ(reader.error(), "it answered in TLS, not plain HTTP: name it with https://");
}

TEST(HttpResponse, HeadOnlyAnswersAndTheETag) {
    HttpResponseReader reader(1 << 20);
    reader.reset({}, true);  // a proxy's 200 to CONNECT: no body, whatever follows is the tunnel's
    EXPECT_EQ(reader.feed("HTTP/1.1 200 Connection established\r\n\r\n"), Progress::done);
    EXPECT_EQ(reader.status(), 200);
    reader.reset();
    EXPECT_EQ(reader.feed("HTTP/1.1 304 Not Modified\r\nETag: \"7-3\"\r\nContent-Length: 900\r\n\r\n"), Progress::done);
    EXPECT_EQ(reader.status(), 304);
    EXPECT_EQ(reader.etag(), "\"7-3\"");
    EXPECT_TRUE(reader.body().empty());
    // A validator with a bare CR, a space or no quotes is never echoed to the node.
    for (const char* bad : {"\"a\rX-Evil: 1\"", "\"a b\"", "abc", "W/\"", "\"a\x7f\""}) {
        reader.reset();
        EXPECT_EQ(reader.feed("HTTP/1.1 304 Not Modified\r\nETag: " + std::string(bad) + "\r\n\r\n"), Progress::done);
        EXPECT_EQ(reader.etag(), "") << bad;
    }
    reader.reset();
    EXPECT_EQ(reader.feed("HTTP/1.1 304 Not Modified\r\nETag: W/\"x\"\r\n\r\n"), Progress::done);
    EXPECT_EQ(reader.etag(), "W/\"x\"");
}

// Chunk framing is not headers: a 100 KB body in 1-byte chunks is whole, while a
// body that is all framing (chunk extensions by the kilobyte) fails.
TEST(HttpResponse, OneByteChunksAreReadAndFramingIsBounded) {
    std::string answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 100000; ++i) answer += "1\r\nx\r\n";
    answer += "0\r\n\r\n";
    HttpResponseReader reader(1 << 20);
    ASSERT_EQ(reader.feed(answer), Progress::done) << reader.error();
    EXPECT_EQ(reader.body().size(), 100000u);
    std::string padded = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 200; ++i) padded += "1;" + std::string(1000, 'e') + "\r\nx\r\n";
    reader.reset();
    EXPECT_EQ(reader.feed(padded), Progress::failed);
    EXPECT_EQ(reader.error(), "the answer's chunks are mostly framing");
}

// CIDR ranges and IP addresses in no_proxy, as curl 7.86+ and Go match them; an
// entry of another shape is said, never silently a proxy for the bearer token.
TEST(Proxy, NoProxyRangesAndAddresses) {
    std::map<std::string, std::string> env = {{"http_proxy", "http://proxy:3128"}};
    const auto lookup = [&](const char* name) -> const char* {
        const auto found = env.find(name);
        return found == env.end() ? nullptr : found->second.c_str();
    };
    const Endpoint v4{false, "127.0.0.1", 9090}, v6{false, "::1", 9090}, named{false, "prom.local", 9090};
    const auto proxied = [&](const Endpoint& to, const std::string& no_proxy) {
        env["no_proxy"] = no_proxy;
        return proxy_route(to, lookup).value().has_value();
    };
    EXPECT_FALSE(proxied(v4, "127.0.0.0/8"));
    EXPECT_FALSE(proxied(v4, "10.0.0.0/8, 127.0.0.1/32"));
    EXPECT_TRUE(proxied(v4, "128.0.0.0/8"));
    EXPECT_TRUE(proxied(v4, "127.0.0.2/32"));
    EXPECT_FALSE(proxied(v4, "0.0.0.0/0"));
    EXPECT_FALSE(proxied(v6, "::/64"));
    EXPECT_FALSE(proxied(v6, "[0:0::1]"));  // one address, however written
    EXPECT_TRUE(proxied(v6, "fd00::/8"));
    EXPECT_TRUE(proxied(v6, "127.0.0.0/8"));     // another family
    EXPECT_TRUE(proxied(named, "127.0.0.0/8"));  // a name is never in a range
    env["no_proxy"] = "10.0.0.0/33,*.example.com,good.example.com,fe80::/x";
    std::vector<std::string> warnings;
    EXPECT_TRUE(proxy_route(v4, lookup, &warnings).value().has_value());
    ASSERT_EQ(warnings.size(), 3u);
    EXPECT_NE(warnings[0].find("'10.0.0.0/33' is not an address range"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[1].find("'*.example.com' is not understood"), std::string::npos) << warnings[1];
    EXPECT_NE(warnings[2].find("'fe80::/x'"), std::string::npos) << warnings[2];
}

TEST(Proxy, TheVariablesCurlReads) {
    std::map<std::string, std::string> env;
    const auto lookup = [&](const char* name) -> const char* {
        const auto found = env.find(name);
        return found == env.end() ? nullptr : found->second.c_str();
    };
    const Endpoint plain{false, "prom.example.com", 9090}, tls{true, "prom.example.com", 443};
    EXPECT_FALSE(proxy_route(plain, lookup).value());
    env["HTTP_PROXY"] = "http://evil:1";  // set by CGI servers from a request header: ignored
    EXPECT_FALSE(proxy_route(plain, lookup).value());
    env["http_proxy"] = "proxy:3128";
    auto route = proxy_route(plain, lookup);
    ASSERT_TRUE(route.ok() && route.value());
    EXPECT_EQ(route.value()->proxy, (Endpoint{false, "proxy", 3128}));
    EXPECT_FALSE(route.value()->proxy_authorization);
    EXPECT_FALSE(proxy_route(tls, lookup).value());  // http_proxy is for http:// only
    env["HTTPS_PROXY"] = "http://alice:s3cret@[::1]:8080/";
    route = proxy_route(tls, lookup);
    ASSERT_TRUE(route.ok() && route.value());
    EXPECT_EQ(route.value()->proxy, (Endpoint{false, "::1", 8080}));
    EXPECT_EQ(route.value()->proxy_authorization, basic_authorization("alice", "s3cret"));
    for (const char* bypass : {"*", "example.com", ".example.com", "other, PROM.example.com:9090"}) {
        env["no_proxy"] = bypass;
        EXPECT_FALSE(proxy_route(plain, lookup).value()) << bypass;
    }
    env["no_proxy"] = "ample.com,prom.example.co";
    EXPECT_TRUE(proxy_route(plain, lookup).value());
    // A password may hold '@': the last one before the host ends it, as curl reads it.
    env["HTTPS_PROXY"] = "http://alice:p@ss@proxy:8080";
    route = proxy_route(tls, lookup);
    ASSERT_TRUE(route.ok()) << route.error();
    EXPECT_EQ(route.value()->proxy, (Endpoint{false, "proxy", 8080}));
    EXPECT_EQ(route.value()->proxy_authorization, basic_authorization("alice", "p@ss"));
    env["http_proxy"] = "https://proxy:3128";
    EXPECT_FALSE(proxy_route(plain, lookup).ok());
    env["http_proxy"] = "http://proxy:99999";
    const auto bad = proxy_route(plain, lookup);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("http_proxy"), std::string::npos) << bad.error();
}
