"""The web app: tournaments, leaderboards, replays and live matches in a browser."""
