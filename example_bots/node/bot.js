// A random admiralty bot in JavaScript: a gRPC server implementing admiralty.v1.BotService.
//
//     node example_bots/node/bot.js 50061      (or --port 50061)
//
// It loads the protocol from the repository's proto/ at runtime, so it never goes stale.
// The referee starts it in a working directory of its own (every path here is relative to
// this file) with ADMIRALTY_PORT=N, and with `--port N` appended unless the command has
// `{port}`: `--bot "node example_bots/node/bot.js {port}"` gives the port positionally.
"use strict";

const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = path.join(__dirname, "..", "..", "proto");

// `bot.js PORT` or `bot.js --port PORT`, else ADMIRALTY_PORT, else 50061; anything else is a
// mistake worth stopping for.
function port() {
  const args = process.argv.slice(2);
  let value = process.env.ADMIRALTY_PORT || "50061";
  if (args.length === 1) {
    [value] = args;
  } else if (args.length === 2 && args[0] === "--port") {
    [, value] = args;
  } else if (args.length !== 0) {
    console.error(`node-random: usage: node bot.js [PORT | --port PORT], not ${args.join(" ")}`);
    process.exit(2);
  }
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65535) {
    console.error(`node-random: not a port: ${value}`);
    process.exit(2);
  }
  return number;
}

// keepCase: the messages keep the .proto field names (request_id, option_index).
const definition = protoLoader.loadSync("admiralty/v1/bot.proto", {
  includeDirs: [PROTO_ROOT],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const { BotService } = grpc.loadPackageDefinition(definition).admiralty.v1;

const bot = {
  Hello(call, callback) {
    // games: the registered names this bot plays; a random bot plays both.
    callback(null, { name: "node-random", version: "1.0", games: ["jamaica", "black_fleet"] });
  },

  Decide(call, callback) {
    const { request_id, options } = call.request;
    // The referee asks only when there is a real choice, so there are two options or more.
    const option = options[Math.floor(Math.random() * options.length)];
    callback(null, { request_id, option_index: option.index });
  },

  MatchOver(call, callback) {
    callback(null, {});
  },
};

const server = new grpc.Server();
server.addService(BotService.service, bot);
const address = `127.0.0.1:${port()}`;
server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) {
    console.error(`node-random: cannot listen on ${address}: ${error.message}`);
    process.exit(1);
  }
  console.error(`node-random listening on ${address}`);
});
