from canary.cli import main

main()
