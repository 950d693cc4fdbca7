#include "musatop/net/gzip.hpp"

#include <zlib.h>

namespace musatop::net {

std::optional<std::string> gzip_compress(std::string_view bytes) {
    z_stream z{};
    // 15 + 16: a gzip header and trailer; level 6 as gzip's default, memory level 8.
    if (::deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(::deflateBound(&z, static_cast<uLong>(bytes.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int status = ::deflate(&z, Z_FINISH);
    ::deflateEnd(&z);
    if (status != Z_STREAM_END) return std::nullopt;
    out.resize(z.total_out);
    return out;
}

std::optional<std::string> gzip_decompress(std::string_view bytes, std::size_t max_bytes) {
    z_stream z{};
    if (::inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    std::string out;
    char chunk[16384];
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        status = ::inflate(&z, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) break;
        out.append(chunk, sizeof chunk - z.avail_out);
        if (out.size() > max_bytes) status = Z_MEM_ERROR;
        if (status == Z_OK && z.avail_in == 0 && z.avail_out != 0) status = Z_BUF_ERROR;  // cut short
    }
    ::inflateEnd(&z);
    if (status != Z_STREAM_END) return std::nullopt;
    return out;
}

}  // namespace musatop::net
