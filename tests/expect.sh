# Sourced by the shell tests: a scratch folder removed on exit, and expect(), which counts a check as
# passed when a command's exit status and output are as expected (else prints what it got).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
expect() { # name, expected exit, actual exit, output file, text the output must contain
  if [[ $3 -eq $2 ]] && grep -qF -- "$5" "$4"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1: exit $3 (expected $2), wanted '$5' in:" && cat "$4"
  fi
}
