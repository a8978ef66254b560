#!/usr/bin/env bash
# Instructions one routing costs, per input of the router bench: the
# figure machine load cannot move (criterion's times on a shared machine
# can, by 3x). Needs valgrind. Usage: scripts/route-cost.sh [BIN]
set -euo pipefail
bin=${1:-target/release/examples/route_cost}
[ -x "$bin" ] || cargo build --profile bench --example route_cost
inputs=(
  "bare_git_status|git status"
  "bare_chain|git log --oneline | head -5 && git status"
  "bare_blocked_push|git push --force origin main"
  "bare_lead_in|can you run \`git log -3\`?"
  "bare_lead_in_es|porfa: git status"
  "composite_commit|do the commit"
  "composite_message_es|haz commit con el mensaje «corrige el login»"
  "composite_slang_es|hacé el commit che"
  "composite_typos|hsz el comit porfaaa 🙏"
  "composite_paths|commit only src/main.rs and README.md"
  "composite_formal_es|Le ruego que haga un commit de los cambios."
  "composite_question_es|¿en qué rama estoy?"
  "composite_blocked_es|bota mis cambios"
  "chat|gracias"
  "chat_slang|grax bro 🙏"
  "chat_laughter|jajajaja"
  "llm_task|refactor StudentService to use constructor injection and add tests"
  "except_paths|commit everything except the .env file"
  "llm_condition|commit only if the tests pass"
  "llm_question_es|¿cómo hago un rebase interactivo sin perder cambios?"
  "llm_long|please review the error handling in src/router/mod.rs and tell me whether the chain splitting can lose a segment when the request ends with a semicolon, then propose a fix with tests"
)
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
printf '%-24s %12s\n' input instructions
for entry in "${inputs[@]}"; do
  name=${entry%%|*} input=${entry#*|}
  one=$(count 1 "$input") many=$(count 101 "$input")
  printf '%-24s %12d\n' "$name" $(((many - one) / 100))
done
