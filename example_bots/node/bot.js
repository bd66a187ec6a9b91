// A random admiralty bot in JavaScript: a gRPC server implementing admiralty.v1.BotService,
// or a client dialing in to an arena (admiralty.v1.ArenaService).
//
//     node example_bots/node/bot.js 50061      (or --port 50061)
//     node example_bots/node/bot.js --dial arena.example.org:50070 --key-file bot.key
//
// It loads the protocol from the repository's proto/ at runtime, so it never goes stale.
// The referee starts it in a working directory of its own (every path here is relative to
// this file) with ADMIRALTY_PORT=N, and with `--port N` appended unless the command has
// `{port}`: `--bot "node example_bots/node/bot.js {port}"` gives the port positionally.
// Dialing in, it answers the arena's calls on one stream, opened again after a growing
// pause (0.5 s doubling to 30 s, with jitter) whenever it ends; `--tls` or `--tls-ca FILE`
// dials over TLS.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = path.join(__dirname, "..", "..", "proto");
const NAME = "node-random";

function usage(message) {
  console.error(`${NAME}: ${message}`);
  process.exit(2);
}

// `bot.js PORT` or `bot.js --port PORT`, else ADMIRALTY_PORT, else 50061; or the dial-in
// flags; anything else is a mistake worth stopping for.
function parseArgs() {
  const args = process.argv.slice(2);
  if (args.includes("--dial")) {
    return dialArgs(args);
  }
  let value = process.env.ADMIRALTY_PORT || "50061";
  if (args.length === 1) {
    [value] = args;
  } else if (args.length === 2 && args[0] === "--port") {
    [, value] = args;
  } else if (args.length !== 0) {
    usage(
      "usage: node bot.js [PORT | --port PORT | --dial ADDRESS --key-file FILE " +
        `[--tls | --tls-ca FILE]], not ${args.join(" ")}`,
    );
  }
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65535) {
    usage(`not a port: ${value}`);
  }
  return { port: number };
}

function dialArgs(args) {
  const flags = {};
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === "--tls") {
      flags.tls = true;
    } else if (["--dial", "--key-file", "--tls-ca"].includes(args[i]) && i + 1 < args.length) {
      flags[args[i]] = args[i + 1];
      i += 1;
    } else {
      usage(`unknown or incomplete flag: ${args[i]}`);
    }
  }
  if (!flags["--key-file"]) {
    usage("--dial needs --key-file FILE: the bot's key, as the arena printed it");
  }
  try {
    const key = fs.readFileSync(flags["--key-file"], "utf8").trim();
    const roots = flags["--tls-ca"] ? fs.readFileSync(flags["--tls-ca"]) : null;
    const credentials =
      roots || flags.tls ? grpc.credentials.createSsl(roots) : grpc.credentials.createInsecure();
    return { dial: flags["--dial"], key, credentials };
  } catch (error) {
    return usage(`cannot read ${error.path}: ${error.message}`);
  }
}

// keepCase: the messages keep the .proto field names (request_id, option_index).
const definition = protoLoader.loadSync(["admiralty/v1/bot.proto", "admiralty/v1/arena.proto"], {
  includeDirs: [PROTO_ROOT],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const { BotService, ArenaService } = grpc.loadPackageDefinition(definition).admiralty.v1;

// The bot's answers, by call: the same whether it is served or dials in.
const answers = {
  // games: the registered names this bot plays; a random bot plays both.
  hello: () => ({ name: NAME, version: "1.0", games: ["jamaica", "black_fleet"] }),

  decide({ request_id, options }) {
    // The referee asks only when there is a real choice, so there are two options or more.
    const option = options[Math.floor(Math.random() * options.length)];
    return { request_id, option_index: option.index };
  },

  match_over: () => ({}),
};

function serve(port) {
  const server = new grpc.Server();
  server.addService(BotService.service, {
    Hello: (call, callback) => callback(null, answers.hello(call.request)),
    Decide: (call, callback) => callback(null, answers.decide(call.request)),
    MatchOver: (call, callback) => callback(null, answers.match_over(call.request)),
  });
  const address = `127.0.0.1:${port}`;
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      console.error(`${NAME}: cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    console.error(`${NAME} listening on ${address}`);
  });
}

// The arena ends a stream for good with these: a wrong key, or a Hello it refuses.
const FATAL = [grpc.status.UNAUTHENTICATED, grpc.status.INVALID_ARGUMENT];

// One stream to the arena: each call (`message.call` names it) answered with its call id.
function dial(client, { dial: address, key }, delay) {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${key}`);
  const call = client.Play(metadata);
  let welcomed = false;
  call.on("data", (message) => {
    welcomed = true;
    const kind = message.call;
    const answer = answers[kind]
      ? { [kind]: answers[kind](message[kind]) }
      : { error: `this bot does not know the call ${kind}` };
    call.write({ call_id: message.call_id, ...answer });
  });
  call.on("error", () => {}); // the status below says it all
  call.on("status", ({ code, details }) => {
    if (FATAL.includes(code)) {
      console.error(`${NAME}: ${address}: ${details}`);
      process.exit(1);
    }
    const next = welcomed ? 500 : delay;
    const wait = next * (0.5 + Math.random() / 2);
    const why = details || "the stream ended";
    console.error(`${NAME}: ${address}: ${why}; again in ${Math.round(wait)} ms`);
    setTimeout(() => dial(client, { dial: address, key }, Math.min(next * 2, 30000)), wait);
  });
}

const args = parseArgs();
if (args.dial) {
  dial(new ArenaService(args.dial, args.credentials), args, 500);
} else {
  serve(args.port);
}
