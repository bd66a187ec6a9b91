"""Keeps gRPC's own log lines (its C core's, through absl: "Got goaway", "Failed to add
port") off the operator's terminal. grpc reads GRPC_VERBOSITY once, when it is imported, so
the `admiralty` command imports this module before grpc. A GRPC_VERBOSITY the operator set,
to debug, is kept."""

import os

os.environ.setdefault("GRPC_VERBOSITY", "NONE")
