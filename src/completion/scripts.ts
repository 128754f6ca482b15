// The scripts `fleetcom completion <shell>` prints. Each only hands the words to
// `fleetcom __complete`, which answers one `value<TAB>description` a line, so every shell
// completes the same things and a new command needs no change here.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# fleetcom completion for bash. Load it with: source <(fleetcom completion bash)
_fleetcom_complete() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    [ -n "$line" ] && COMPREPLY+=("\${line%%$'\\t'*}")
  done < <(fleetcom __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o default -F _fleetcom_complete fleetcom
`;

const ZSH = `#compdef fleetcom
# fleetcom completion for zsh. Load it with: source <(fleetcom completion zsh)
_fleetcom() {
  local line
  local -a described
  for line in "\${(@f)$(fleetcom __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -z $line ]] && continue
    described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#described} )); then _describe 'fleetcom' described; else _files; fi
}
compdef _fleetcom fleetcom
`;

const FISH = `# fleetcom completion for fish. Load it with: fleetcom completion fish | source
complete -c fleetcom -e
complete -c fleetcom -f -a '(fleetcom __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;

export function completionScript(shell: Shell): string {
  return { bash: BASH, zsh: ZSH, fish: FISH }[shell];
}
