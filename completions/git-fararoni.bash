_git__fararoni() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="git__fararoni"
                ;;
            git__fararoni,agent-replay)
                cmd="git__fararoni__subcmd__agent__subcmd__replay"
                ;;
            git__fararoni,ask)
                cmd="git__fararoni__subcmd__ask"
                ;;
            git__fararoni,distill)
                cmd="git__fararoni__subcmd__distill"
                ;;
            git__fararoni,generate)
                cmd="git__fararoni__subcmd__generate"
                ;;
            git__fararoni,guard)
                cmd="git__fararoni__subcmd__guard"
                ;;
            git__fararoni,help)
                cmd="git__fararoni__subcmd__help"
                ;;
            git__fararoni,saga)
                cmd="git__fararoni__subcmd__saga"
                ;;
            git__fararoni,session)
                cmd="git__fararoni__subcmd__session"
                ;;
            git__fararoni,shadow)
                cmd="git__fararoni__subcmd__shadow"
                ;;
            git__fararoni,undo)
                cmd="git__fararoni__subcmd__undo"
                ;;
            git__fararoni__subcmd__generate,completions)
                cmd="git__fararoni__subcmd__generate__subcmd__completions"
                ;;
            git__fararoni__subcmd__generate,help)
                cmd="git__fararoni__subcmd__generate__subcmd__help"
                ;;
            git__fararoni__subcmd__generate,man)
                cmd="git__fararoni__subcmd__generate__subcmd__man"
                ;;
            git__fararoni__subcmd__generate__subcmd__help,completions)
                cmd="git__fararoni__subcmd__generate__subcmd__help__subcmd__completions"
                ;;
            git__fararoni__subcmd__generate__subcmd__help,help)
                cmd="git__fararoni__subcmd__generate__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__generate__subcmd__help,man)
                cmd="git__fararoni__subcmd__generate__subcmd__help__subcmd__man"
                ;;
            git__fararoni__subcmd__guard,check)
                cmd="git__fararoni__subcmd__guard__subcmd__check"
                ;;
            git__fararoni__subcmd__guard,help)
                cmd="git__fararoni__subcmd__guard__subcmd__help"
                ;;
            git__fararoni__subcmd__guard,write)
                cmd="git__fararoni__subcmd__guard__subcmd__write"
                ;;
            git__fararoni__subcmd__guard__subcmd__help,check)
                cmd="git__fararoni__subcmd__guard__subcmd__help__subcmd__check"
                ;;
            git__fararoni__subcmd__guard__subcmd__help,help)
                cmd="git__fararoni__subcmd__guard__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__guard__subcmd__help,write)
                cmd="git__fararoni__subcmd__guard__subcmd__help__subcmd__write"
                ;;
            git__fararoni__subcmd__help,agent-replay)
                cmd="git__fararoni__subcmd__help__subcmd__agent__subcmd__replay"
                ;;
            git__fararoni__subcmd__help,ask)
                cmd="git__fararoni__subcmd__help__subcmd__ask"
                ;;
            git__fararoni__subcmd__help,distill)
                cmd="git__fararoni__subcmd__help__subcmd__distill"
                ;;
            git__fararoni__subcmd__help,generate)
                cmd="git__fararoni__subcmd__help__subcmd__generate"
                ;;
            git__fararoni__subcmd__help,guard)
                cmd="git__fararoni__subcmd__help__subcmd__guard"
                ;;
            git__fararoni__subcmd__help,help)
                cmd="git__fararoni__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__help,saga)
                cmd="git__fararoni__subcmd__help__subcmd__saga"
                ;;
            git__fararoni__subcmd__help,session)
                cmd="git__fararoni__subcmd__help__subcmd__session"
                ;;
            git__fararoni__subcmd__help,shadow)
                cmd="git__fararoni__subcmd__help__subcmd__shadow"
                ;;
            git__fararoni__subcmd__help,undo)
                cmd="git__fararoni__subcmd__help__subcmd__undo"
                ;;
            git__fararoni__subcmd__help__subcmd__generate,completions)
                cmd="git__fararoni__subcmd__help__subcmd__generate__subcmd__completions"
                ;;
            git__fararoni__subcmd__help__subcmd__generate,man)
                cmd="git__fararoni__subcmd__help__subcmd__generate__subcmd__man"
                ;;
            git__fararoni__subcmd__help__subcmd__guard,check)
                cmd="git__fararoni__subcmd__help__subcmd__guard__subcmd__check"
                ;;
            git__fararoni__subcmd__help__subcmd__guard,write)
                cmd="git__fararoni__subcmd__help__subcmd__guard__subcmd__write"
                ;;
            git__fararoni__subcmd__help__subcmd__saga,abort)
                cmd="git__fararoni__subcmd__help__subcmd__saga__subcmd__abort"
                ;;
            git__fararoni__subcmd__help__subcmd__saga,finish)
                cmd="git__fararoni__subcmd__help__subcmd__saga__subcmd__finish"
                ;;
            git__fararoni__subcmd__help__subcmd__saga,list)
                cmd="git__fararoni__subcmd__help__subcmd__saga__subcmd__list"
                ;;
            git__fararoni__subcmd__help__subcmd__saga,start)
                cmd="git__fararoni__subcmd__help__subcmd__saga__subcmd__start"
                ;;
            git__fararoni__subcmd__help__subcmd__saga,status)
                cmd="git__fararoni__subcmd__help__subcmd__saga__subcmd__status"
                ;;
            git__fararoni__subcmd__help__subcmd__session,list)
                cmd="git__fararoni__subcmd__help__subcmd__session__subcmd__list"
                ;;
            git__fararoni__subcmd__help__subcmd__session,show)
                cmd="git__fararoni__subcmd__help__subcmd__session__subcmd__show"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,diff)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__diff"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,list)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__list"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,prune)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__prune"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,restore)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__restore"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,show)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__show"
                ;;
            git__fararoni__subcmd__help__subcmd__shadow,snapshot)
                cmd="git__fararoni__subcmd__help__subcmd__shadow__subcmd__snapshot"
                ;;
            git__fararoni__subcmd__saga,abort)
                cmd="git__fararoni__subcmd__saga__subcmd__abort"
                ;;
            git__fararoni__subcmd__saga,finish)
                cmd="git__fararoni__subcmd__saga__subcmd__finish"
                ;;
            git__fararoni__subcmd__saga,help)
                cmd="git__fararoni__subcmd__saga__subcmd__help"
                ;;
            git__fararoni__subcmd__saga,list)
                cmd="git__fararoni__subcmd__saga__subcmd__list"
                ;;
            git__fararoni__subcmd__saga,start)
                cmd="git__fararoni__subcmd__saga__subcmd__start"
                ;;
            git__fararoni__subcmd__saga,status)
                cmd="git__fararoni__subcmd__saga__subcmd__status"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,abort)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__abort"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,finish)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__finish"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,help)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,list)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__list"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,start)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__start"
                ;;
            git__fararoni__subcmd__saga__subcmd__help,status)
                cmd="git__fararoni__subcmd__saga__subcmd__help__subcmd__status"
                ;;
            git__fararoni__subcmd__session,help)
                cmd="git__fararoni__subcmd__session__subcmd__help"
                ;;
            git__fararoni__subcmd__session,list)
                cmd="git__fararoni__subcmd__session__subcmd__list"
                ;;
            git__fararoni__subcmd__session,show)
                cmd="git__fararoni__subcmd__session__subcmd__show"
                ;;
            git__fararoni__subcmd__session__subcmd__help,help)
                cmd="git__fararoni__subcmd__session__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__session__subcmd__help,list)
                cmd="git__fararoni__subcmd__session__subcmd__help__subcmd__list"
                ;;
            git__fararoni__subcmd__session__subcmd__help,show)
                cmd="git__fararoni__subcmd__session__subcmd__help__subcmd__show"
                ;;
            git__fararoni__subcmd__shadow,diff)
                cmd="git__fararoni__subcmd__shadow__subcmd__diff"
                ;;
            git__fararoni__subcmd__shadow,help)
                cmd="git__fararoni__subcmd__shadow__subcmd__help"
                ;;
            git__fararoni__subcmd__shadow,list)
                cmd="git__fararoni__subcmd__shadow__subcmd__list"
                ;;
            git__fararoni__subcmd__shadow,prune)
                cmd="git__fararoni__subcmd__shadow__subcmd__prune"
                ;;
            git__fararoni__subcmd__shadow,restore)
                cmd="git__fararoni__subcmd__shadow__subcmd__restore"
                ;;
            git__fararoni__subcmd__shadow,show)
                cmd="git__fararoni__subcmd__shadow__subcmd__show"
                ;;
            git__fararoni__subcmd__shadow,snapshot)
                cmd="git__fararoni__subcmd__shadow__subcmd__snapshot"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,diff)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__diff"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,help)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__help"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,list)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__list"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,prune)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__prune"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,restore)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__restore"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,show)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__show"
                ;;
            git__fararoni__subcmd__shadow__subcmd__help,snapshot)
                cmd="git__fararoni__subcmd__shadow__subcmd__help__subcmd__snapshot"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        git__fararoni)
            opts="-h -V --help --version ask guard shadow saga undo distill session generate agent-replay help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__agent__subcmd__replay)
            opts="-v -h -V --script --requests --base-url --level --json --verbose --show-thinking --yes --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --script)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --level)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__ask)
            opts="-v -y -h -V --explain --json --verbose --level --show-thinking --yes --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --level)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__distill)
            opts="-h -V --exit-code --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate)
            opts="-h -V --help --version man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__completions)
            opts="-h -V --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__help)
            opts="man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__generate__subcmd__man)
            opts="-h -V --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard)
            opts="-h -V --help --version check write help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__check)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__help)
            opts="check write help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__help__subcmd__write)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__guard__subcmd__write)
            opts="-h -V --from --force --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help)
            opts="ask guard shadow saga undo distill session generate agent-replay help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__agent__subcmd__replay)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__ask)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__distill)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__generate)
            opts="man completions"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__generate__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__generate__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__guard)
            opts="check write"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__guard__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__guard__subcmd__write)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga)
            opts="start finish abort status list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga__subcmd__abort)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga__subcmd__finish)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga__subcmd__start)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__saga__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__session)
            opts="list show"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__session__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__session__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow)
            opts="list show diff restore snapshot prune"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__restore)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__shadow__subcmd__snapshot)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__help__subcmd__undo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga)
            opts="-h -V --help --version start finish abort status list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__abort)
            opts="-h -V --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__finish)
            opts="-m -h -V --message --include-dirty --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --message)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help)
            opts="start finish abort status list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__abort)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__finish)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__start)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__list)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__start)
            opts="-h -V --name --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__saga__subcmd__status)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session)
            opts="-h -V --help --version list show help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__help)
            opts="list show help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__list)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__session__subcmd__show)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow)
            opts="-h -V --help --version list show diff restore snapshot prune help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__diff)
            opts="-h --version --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help)
            opts="list show diff restore snapshot prune help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__restore)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__help__subcmd__snapshot)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__list)
            opts="-h -V --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__prune)
            opts="-h -V --keep --older-than --yes --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --keep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --older-than)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__restore)
            opts="-h --version --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__show)
            opts="-h --version --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__shadow__subcmd__snapshot)
            opts="-h -V --session --json --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__subcmd__fararoni__subcmd__undo)
            opts="-h -V --session --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _git__fararoni -o nosort -o bashdefault -o default git-fararoni
else
    complete -F _git__fararoni -o bashdefault -o default git-fararoni
fi
