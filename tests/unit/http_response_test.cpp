// The direct fetcher's HTTP/1.1 for plain http:// nodes: the request it sends and
// the answers it reads, whole and split at every byte.
#include <gtest/gtest.h>

#include "musatop/cluster/http_response.hpp"
#include "musatop/cluster/node_list.hpp"

using namespace musatop::cluster;
using State = HttpResponseReader::State;

namespace {

// Feeds `text` in pieces of `step` bytes; the state after the last piece.
State read_in_steps(HttpResponseReader& reader, const std::string& text, std::size_t step) {
    reader.reset();
    State state = State::reading;
    for (std::size_t at = 0; at < text.size() && state == State::reading; at += step)
        state = reader.feed(std::string_view(text).substr(at, step));
    return state;
}

}  // namespace

TEST(HttpRequest, GetWithHostAndOptionalBasicAuth) {
    NodeAddress v4{false, "gpu01", 9499};
    EXPECT_EQ(http_get_request(v4, "/api/v1/snapshot", std::nullopt),
              "GET /api/v1/snapshot HTTP/1.1\r\nHost: gpu01:9499\r\nUser-Agent: musatop-cluster\r\n"
              "Accept: application/json\r\n\r\n");
    NodeAddress v6{false, "::1", 80};
    const std::string with_auth = http_get_request(v6, "/x", basic_authorization("Aladdin", "open sesame"));
    EXPECT_NE(with_auth.find("\r\nHost: [::1]:80\r\n"), std::string::npos) << with_auth;
    EXPECT_NE(with_auth.find("\r\nAuthorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n"), std::string::npos);
    EXPECT_EQ(basic_authorization("", ""), "Basic Og==");
    EXPECT_EQ(basic_authorization("ab", ""), "Basic YWI6");
    EXPECT_EQ(basic_authorization("a", "bc"), "Basic YTpiYw==");
}

TEST(HttpResponse, ContentLengthBodyAtEverySplit) {
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 11\r\n\r\n{\"a\": true}";
    for (std::size_t step = 1; step <= answer.size(); ++step) {
        HttpResponseReader reader(1 << 20);
        ASSERT_EQ(read_in_steps(reader, answer, step), State::done) << step;
        EXPECT_EQ(reader.status(), 200);
        EXPECT_EQ(reader.body(), "{\"a\": true}");
        EXPECT_TRUE(reader.keep_alive());
        EXPECT_GE(reader.body().capacity(), reader.body().size() + 64);  // room for simdjson's padding
    }
}

TEST(HttpResponse, ChunkedBodyWithExtensionsAndTrailersAtEverySplit) {
    const std::string answer =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\nA\r\n, chunked!\r\n0\r\nX-T: 1\r\n\r\n";
    for (std::size_t step = 1; step <= answer.size(); ++step) {
        HttpResponseReader reader(1 << 20);
        ASSERT_EQ(read_in_steps(reader, answer, step), State::done) << step;
        EXPECT_EQ(reader.body(), "hello, chunked!");
        EXPECT_TRUE(reader.keep_alive());
    }
}

TEST(HttpResponse, ConnectionRulesAndBodiesThatEndWithTheConnection) {
    HttpResponseReader reader(1 << 20);
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno", 7),
              State::done);
    EXPECT_EQ(reader.status(), 404);
    EXPECT_FALSE(reader.keep_alive());
    // HTTP/1.0 without a length: the body is what comes until the node closes.
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.0 200 OK\r\n\r\n<html>", 3), State::reading);
    EXPECT_EQ(reader.end_of_input(), State::done);
    EXPECT_EQ(reader.body(), "<html>");
    EXPECT_FALSE(reader.keep_alive());
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 5),
              State::done);
    EXPECT_TRUE(reader.keep_alive());
    // 100 Continue goes before the answer; 204 has no body.
    EXPECT_EQ(read_in_steps(reader, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", 4), State::done);
    EXPECT_EQ(reader.status(), 204);
    // Bytes after the answer: the connection is not used again.
    EXPECT_EQ(reader.feed(""), State::done);
    reader.reset();
    EXPECT_EQ(reader.feed("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1"), State::done);
    EXPECT_FALSE(reader.keep_alive());
}

TEST(HttpResponse, BadAnswersFailWithAReason) {
    const std::pair<const char*, const char*> cases[] = {
        {"SSH-2.0-OpenSSH_9.2\r\n", "not an HTTP answer"},
        {"HTTP/1.1 2x0 OK\r\n", "not an HTTP answer"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n", "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the answer's Content-Length is not one number"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "the answer's transfer encoding is not chunked"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "the answer's chunk size is not a number"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "a chunk of the answer does not end where it says"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 2048\r\n\r\n", "the answer exceeded 0 MiB"},
    };
    for (const auto& [answer, why] : cases) {
        HttpResponseReader reader(1024);
        EXPECT_EQ(read_in_steps(reader, answer, 1), State::failed) << answer;
        EXPECT_EQ(reader.error(), why) << answer;
        EXPECT_FALSE(reader.keep_alive());
    }
    HttpResponseReader chunks(8);
    EXPECT_EQ(read_in_steps(chunks, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n123456789\r\n", 4),
              State::failed);
    EXPECT_TRUE(chunks.too_large());
    HttpResponseReader endless(1 << 20);
    EXPECT_EQ(read_in_steps(endless, "HTTP/1.1 200 OK\r\nX: " + std::string(70 << 10, 'a'), 4096), State::failed);
    EXPECT_EQ(endless.error(), "the answer's headers exceed 64 KiB");
    HttpResponseReader cut(1 << 20);
    EXPECT_EQ(read_in_steps(cut, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 100), State::reading);
    EXPECT_EQ(cut.end_of_input(), State::failed);
    EXPECT_EQ(cut.error(), "the node closed the connection in the middle of its answer");
    cut.reset();
    EXPECT_FALSE(cut.started());
    EXPECT_EQ(cut.end_of_input(), State::failed);
    EXPECT_EQ(cut.error(), "the node closed the connection without answering");
}
