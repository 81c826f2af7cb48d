"""One module per subcommand. Each parses flags, calls the library, and renders (rich or --json)."""
