// One node's answer to one request, as the net layer's client reports it: what
// the tracker turns into a node's state.
#pragma once

#include "musatop/net/http_client.hpp"

namespace musatop::cluster {

using FetchOutcome = net::ClientOutcome;

}  // namespace musatop::cluster
