# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_fararoni_global_optspecs
    string join \n h/help V/version
end

function __fish_git_fararoni_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_git_fararoni_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_git_fararoni_using_subcommand
    set -l cmd (__fish_git_fararoni_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "ask" -d 'Route a request: run it deterministically when it can be, else hand it on'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "guard" -d 'Kill-switch checks and guarded writes, for people and other tools'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "shadow" -d 'Inspect and restore the shadow store of pre-write backups'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "saga" -d 'Run work on an ephemeral branch and land it as one squashed commit'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "undo" -d 'Restore every file written in the last (or named) session'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "distill" -d 'Reduce a build\'s output to at most 3000 characters of actionable errors'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "session" -d 'Show what agent runs did: requests, tool calls and verdicts, rejections, writes, commits'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "generate"
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "agent-replay" -d 'Run the model levels against a scripted model (for tests)'
complete -c git-fararoni -n "__fish_git_fararoni_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -l level -d 'Go straight to one model level: 3 (tools), 4 (thinking) or 5 (plain)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -l explain -d 'Print the routing decision as one JSON object without running anything (with --json) or as text'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -l json -d 'Print JSON: the decision, plus exit_code, stdout and stderr when run'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -s v -l verbose -d 'Print the cascade\'s decision trail and each command on stderr'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -l show-thinking -d 'Show level 4\'s reasoning (`<think>`), hidden by default'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -s y -l yes -d 'Finish a saga the agent committed into without asking'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand ask" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and not __fish_seen_subcommand_from check write help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and not __fish_seen_subcommand_from check write help" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and not __fish_seen_subcommand_from check write help" -f -a "check" -d 'Compare OLD and NEW with the kill-switch (exit 0 pass, 3 block)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and not __fish_seen_subcommand_from check write help" -f -a "write" -d 'Write PATH through kill-switch, shadow backup and atomic write'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and not __fish_seen_subcommand_from check write help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from check" -l json -d 'Print {"verdict", "jaccard", "volume", "reasons"} as JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from write" -l from -d 'Read the new content from FILE instead of standard input' -r -F
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from write" -l force -d 'Skip the kill-switch (the shadow backup is still taken)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from write" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from write" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "check" -d 'Compare OLD and NEW with the kill-switch (exit 0 pass, 3 block)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "write" -d 'Write PATH through kill-switch, shadow backup and atomic write'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "list" -d 'List backed-up versions, of PATH or of every file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "show" -d 'Print a backed-up version of PATH (default: the newest)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "diff" -d 'Diff a backed-up version of PATH against the working file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "restore" -d 'Restore PATH from a backed-up version (itself reversible)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "snapshot" -d 'Save every modified and untracked file, so `undo --session` can reverse what a program does next'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "prune" -d 'Remove old versions (dry run unless --yes)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and not __fish_seen_subcommand_from list show diff restore snapshot prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from show" -l version -d 'Which version' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from diff" -l version -d 'Which version' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from restore" -l version -d 'Which version' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from snapshot" -l session -d 'The session to record under' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from snapshot" -l json -d 'Print JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from snapshot" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from prune" -l keep -d 'Versions to keep per file' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from prune" -l older-than -d 'Remove versions older than DURATION (e.g. 30d, 12h)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from prune" -l yes -d 'Really remove them'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "list" -d 'List backed-up versions, of PATH or of every file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print a backed-up version of PATH (default: the newest)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Diff a backed-up version of PATH against the working file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Restore PATH from a backed-up version (itself reversible)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "snapshot" -d 'Save every modified and untracked file, so `undo --session` can reverse what a program does next'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Remove old versions (dry run unless --yes)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand shadow; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "start" -d 'Start a saga: create fararoni/wip-<timestamp> at HEAD and switch to it'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "finish" -d 'Squash the saga onto the original branch as one [FARARONI] commit'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "abort" -d 'Return to the original branch, keeping the wip tip recoverable'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "status" -d 'Show the active saga, and how to complete an interrupted one'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "list" -d 'List active (every worktree) and aborted sagas'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and not __fish_seen_subcommand_from start finish abort status list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from start" -l name -d 'A name for the saga (the default subject of its squash commit)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from finish" -s m -l message -d 'The commit message (default: a summary of the saga\'s commits)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from finish" -l include-dirty -d 'Commit uncommitted changes into the saga first (otherwise they make finish refuse, exit 3)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from finish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from finish" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from abort" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from abort" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from status" -l json -d 'Print JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "start" -d 'Start a saga: create fararoni/wip-<timestamp> at HEAD and switch to it'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "finish" -d 'Squash the saga onto the original branch as one [FARARONI] commit'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "abort" -d 'Return to the original branch, keeping the wip tip recoverable'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the active saga, and how to complete an interrupted one'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "list" -d 'List active (every worktree) and aborted sagas'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand saga; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand undo" -l session -d 'The session to undo (default: the last one)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand undo" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand distill" -l exit-code -d 'The build\'s exit code, when known (a non-zero code is never reported as success)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand distill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand distill" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and not __fish_seen_subcommand_from list show help" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and not __fish_seen_subcommand_from list show help" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and not __fish_seen_subcommand_from list show help" -f -a "list" -d 'List the agent runs of this repository, oldest first'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and not __fish_seen_subcommand_from list show help" -f -a "show" -d 'Show one run, event by event (the newest without ID)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and not __fish_seen_subcommand_from list show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from show" -l json -d 'Print the events as JSON'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the agent runs of this repository, oldest first'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one run, event by event (the newest without ID)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and not __fish_seen_subcommand_from man completions help" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and not __fish_seen_subcommand_from man completions help" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and not __fish_seen_subcommand_from man completions help" -f -a "man" -d 'Write git-fararoni*.1 man pages into DIR'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and not __fish_seen_subcommand_from man completions help" -f -a "completions" -d 'Print a completion script for SHELL (bash, zsh, fish)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and not __fish_seen_subcommand_from man completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from man" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from man" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from completions" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from completions" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "man" -d 'Write git-fararoni*.1 man pages into DIR'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "completions" -d 'Print a completion script for SHELL (bash, zsh, fish)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l script -d 'A JSON array of replies: {"text"}, {"tool_calls": [{"name","arguments"}]}, {"think","text"} or {"error"}' -r -F
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l requests -d 'Write every request the model received, as a JSON array, to FILE' -r -F
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l base-url -d 'Pretend the model is at this base URL (for the loopback rule)' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l level -d 'Only this level' -r
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l json -d 'Print one JSON object'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -s v -l verbose -d 'Print the trail on stderr'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l show-thinking -d 'Show level 4\'s reasoning'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -l yes -d 'Finish a saga the run committed into without asking'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -s h -l help -d 'Print help'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand agent-replay" -s V -l version -d 'Print version'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "ask" -d 'Route a request: run it deterministically when it can be, else hand it on'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "guard" -d 'Kill-switch checks and guarded writes, for people and other tools'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "shadow" -d 'Inspect and restore the shadow store of pre-write backups'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "saga" -d 'Run work on an ephemeral branch and land it as one squashed commit'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "undo" -d 'Restore every file written in the last (or named) session'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "distill" -d 'Reduce a build\'s output to at most 3000 characters of actionable errors'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "session" -d 'Show what agent runs did: requests, tool calls and verdicts, rejections, writes, commits'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "generate"
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "agent-replay" -d 'Run the model levels against a scripted model (for tests)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and not __fish_seen_subcommand_from ask guard shadow saga undo distill session generate agent-replay help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from guard" -f -a "check" -d 'Compare OLD and NEW with the kill-switch (exit 0 pass, 3 block)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from guard" -f -a "write" -d 'Write PATH through kill-switch, shadow backup and atomic write'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "list" -d 'List backed-up versions, of PATH or of every file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "show" -d 'Print a backed-up version of PATH (default: the newest)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "diff" -d 'Diff a backed-up version of PATH against the working file'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "restore" -d 'Restore PATH from a backed-up version (itself reversible)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "snapshot" -d 'Save every modified and untracked file, so `undo --session` can reverse what a program does next'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from shadow" -f -a "prune" -d 'Remove old versions (dry run unless --yes)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from saga" -f -a "start" -d 'Start a saga: create fararoni/wip-<timestamp> at HEAD and switch to it'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from saga" -f -a "finish" -d 'Squash the saga onto the original branch as one [FARARONI] commit'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from saga" -f -a "abort" -d 'Return to the original branch, keeping the wip tip recoverable'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from saga" -f -a "status" -d 'Show the active saga, and how to complete an interrupted one'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from saga" -f -a "list" -d 'List active (every worktree) and aborted sagas'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "list" -d 'List the agent runs of this repository, oldest first'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "show" -d 'Show one run, event by event (the newest without ID)'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "man" -d 'Write git-fararoni*.1 man pages into DIR'
complete -c git-fararoni -n "__fish_git_fararoni_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "completions" -d 'Print a completion script for SHELL (bash, zsh, fish)'
