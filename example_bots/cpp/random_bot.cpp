// A random admiralty bot in C++: a gRPC server implementing admiralty.v1.BotService.
//
//     example_bots/cpp/build/random_bot --port 50061
//     example_bots/cpp/build/random_bot --listen 127.0.0.1:50061
//
// The referee starts it with ADMIRALTY_PORT=N, and with `--port N` appended unless the
// command has `{port}`: `--bot "example_bots/cpp/build/random_bot --listen 127.0.0.1:{port}"`.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include <grpcpp/grpcpp.h>

#include "admiralty/v1/bot.grpc.pb.h"

namespace v1 = admiralty::v1;

namespace {

class RandomBot final : public v1::BotService::Service {
 public:
  grpc::Status Hello(grpc::ServerContext*, const v1::HelloRequest*,
                     v1::HelloResponse* reply) override {
    reply->set_name("cpp-random");
    reply->set_version("1.0");
    reply->add_games("jamaica");  // the registered names of the games it plays
    reply->add_games("black_fleet");
    return grpc::Status::OK;
  }

  // The referee asks only when there is a real choice, so there are two options or more.
  grpc::Status Decide(grpc::ServerContext*, const v1::DecideRequest* request,
                      v1::DecideResponse* reply) override {
    int position;
    {
      // gRPC runs calls on a pool of threads; several matches may ask at once.
      std::lock_guard<std::mutex> lock(mutex_);
      position = std::uniform_int_distribution<int>(0, request->options_size() - 1)(rng_);
    }
    reply->set_request_id(request->request_id());
    reply->set_option_index(request->options(position).index());
    return grpc::Status::OK;
  }

  grpc::Status MatchOver(grpc::ServerContext*, const v1::MatchOverRequest*,
                         v1::MatchOverResponse*) override {
    return grpc::Status::OK;
  }

 private:
  std::mutex mutex_;
  std::mt19937_64 rng_{std::random_device{}()};
};

// `--listen HOST:PORT`, or 127.0.0.1 and `--port N`, else ADMIRALTY_PORT, else 50061 (as the
// Python SDK); anything else is a mistake worth stopping for.
std::string Address(int argc, char** argv) {
  std::string host = "127.0.0.1";
  std::string value = "50061";
  if (const char* env = std::getenv("ADMIRALTY_PORT")) value = env;
  const std::string flag = argc == 3 ? argv[1] : "";
  if (flag == "--port") {
    value = argv[2];
  } else if (flag == "--listen") {
    const std::string address = argv[2];
    const auto colon = address.rfind(':');
    host = colon == std::string::npos ? "" : address.substr(0, colon);
    value = colon == std::string::npos ? "" : address.substr(colon + 1);
  } else if (argc != 1) {
    std::cerr << "cpp-random: usage: random_bot [--port N | --listen HOST:PORT]" << std::endl;
    std::exit(2);
  }
  char* end = nullptr;
  long port = std::strtol(value.c_str(), &end, 10);
  if (host.empty() || value.empty() || *end != '\0' || port < 1 || port > 65535) {
    std::cerr << "cpp-random: not HOST:PORT: " << host << ":" << value << std::endl;
    std::exit(2);
  }
  return host + ":" + value;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string address = Address(argc, argv);
  RandomBot bot;
  int bound = 0;
  grpc::ServerBuilder builder;
  // gRPC sets SO_REUSEPORT by default; without it a taken port fails here, not silently.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &bound);
  builder.RegisterService(&bot);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || bound == 0) {
    std::cerr << "cpp-random: cannot listen on " << address << std::endl;
    return 1;
  }
  std::cerr << "cpp-random listening on " << address << std::endl;
  server->Wait();
}
