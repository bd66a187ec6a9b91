#!/usr/bin/env bash
# A random admiralty bot in jq, with no gRPC: one JSON request per line on stdin, one JSON
# answer per line on stdout.
#
#     admiralty play jamaica --bot "stdio:example_bots/stdio/random_bot.sh" \
#         --bot example_bots/random_bot.py
#
# One jq reads every request. jq has no random numbers, so it draws them itself (the
# MINSTD generator, exact in jq's numbers) from a seed of bash's $RANDOM.
exec jq --null-input --compact-output --unbuffered \
  --argjson seed "$((RANDOM * 32768 + RANDOM + 1))" '
  foreach inputs as $request ({random: $seed}; .random = .random * 48271 % 2147483647;
    .random as $random | $request
    | if has("hello") then {name: "jq-random", version: "1.0", games: ["jamaica", "black_fleet"]}
      elif has("decide") then .decide
        | {requestId, optionIndex: .options[$random % (.options | length)].index}
      else {} end)'
