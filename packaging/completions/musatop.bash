# bash completion for musatop                                  -*- shell-script -*-
# The flags are checked against `musatop --help` by the test suite (lint label).

_musatop() {
    local cur prev words cword
    _init_completion -s || return

    local common="--help --version --once --json --interval --gpu --pid --user --job --container --sort
        --reverse --ascii --process-util --count --query-gpu --query-compute-apps --format --loop --no-color --no-mouse --demo --gmi --record --timeout --config --no-config --reveal-hidden-processes
        --write-config --force --nodes --nodes-file --node --show-pid --show-cmd --no-processes --node-user
        --node-password-file --node-ca --prometheus --prometheus-job --prometheus-user --prometheus-password-file
        --prometheus-bearer-token-file --prometheus-ca --prometheus-selector --prometheus-header-file
        --prometheus-node-label --prometheus-scrape-interval"
    local serve="--listen --process-metrics --web-config-file"
    local record="--duration --append --force --max-size --max-files"
    local replay="--at --from --to"
    local gpustat="--help --version --show-cmd --show-full-cmd --show-user --show-pid --show-fan --show-codec
        --show-power --show-all --id --interval --watch --no-header --no-processes --color --no-color
        --gpuname-width --json --nodes --nodes-file --prometheus --node --user --no-latency --gmi --demo"

    case $prev in
        --sort)
            COMPREPLY=($(compgen -W 'gpu_memory gpu_util cpu rss pid user gpu' -- "$cur"))
            return ;;
        --gmi)
            COMPREPLY=($(compgen -c -- "$cur"))
            _filedir
            return ;;
        --config | --write-config | --record | --web-config-file | --nodes-file | --node-password-file | --node-ca | \
            --prometheus-password-file | --prometheus-bearer-token-file | --prometheus-ca | --prometheus-header-file)
            _filedir
            return ;;
        --interval | --timeout | --gpu | --pid | --user | --job | --container | --listen | --duration | \
            --max-size | --max-files | --at | --from | --to | --nodes | -n | --node | --node-user | --prometheus | \
            --prometheus-job | --prometheus-user)
            return ;;
    esac
    [[ $cur == --process-metrics=* ]] && { COMPREPLY=($(compgen -W 'command' -- "${cur#*=}")); return; }

    local subcommand="" word
    for word in "${words[@]:1:cword-1}"; do
        case $word in serve | record | replay | gpustat) subcommand=$word; break ;; esac
    done

    if [[ $cur == -* ]]; then
        case $subcommand in
            serve) COMPREPLY=($(compgen -W "$serve $common" -- "$cur")) ;;
            record) COMPREPLY=($(compgen -W "$record $common" -- "$cur")) ;;
            replay) COMPREPLY=($(compgen -W "$replay $common" -- "$cur")) ;;
            gpustat) COMPREPLY=($(compgen -W "$gpustat" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "$common" -- "$cur")) ;;
        esac
    elif [[ $subcommand == record || $subcommand == replay ]]; then
        _filedir
    elif [[ -z $subcommand ]]; then
        COMPREPLY=($(compgen -W 'serve record replay gpustat' -- "$cur"))
    fi
}
complete -F _musatop musatop
