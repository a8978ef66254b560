_gitfararoni() {
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
                cmd="gitfararoni"
                ;;
            gitfararoni,agent-replay)
                cmd="gitfararoni__subcmd__agent__subcmd__replay"
                ;;
            gitfararoni,ask)
                cmd="gitfararoni__subcmd__ask"
                ;;
            gitfararoni,completions)
                cmd="gitfararoni__subcmd__completions"
                ;;
            gitfararoni,config)
                cmd="gitfararoni__subcmd__config"
                ;;
            gitfararoni,distill)
                cmd="gitfararoni__subcmd__distill"
                ;;
            gitfararoni,doctor)
                cmd="gitfararoni__subcmd__doctor"
                ;;
            gitfararoni,generate)
                cmd="gitfararoni__subcmd__generate"
                ;;
            gitfararoni,guard)
                cmd="gitfararoni__subcmd__guard"
                ;;
            gitfararoni,help)
                cmd="gitfararoni__subcmd__help"
                ;;
            gitfararoni,hook)
                cmd="gitfararoni__subcmd__hook"
                ;;
            gitfararoni,hooks)
                cmd="gitfararoni__subcmd__hooks"
                ;;
            gitfararoni,install-docs)
                cmd="gitfararoni__subcmd__install__subcmd__docs"
                ;;
            gitfararoni,models)
                cmd="gitfararoni__subcmd__models"
                ;;
            gitfararoni,parse-tool-calls)
                cmd="gitfararoni__subcmd__parse__subcmd__tool__subcmd__calls"
                ;;
            gitfararoni,run)
                cmd="gitfararoni__subcmd__run"
                ;;
            gitfararoni,saga)
                cmd="gitfararoni__subcmd__saga"
                ;;
            gitfararoni,session)
                cmd="gitfararoni__subcmd__session"
                ;;
            gitfararoni,shadow)
                cmd="gitfararoni__subcmd__shadow"
                ;;
            gitfararoni,undo)
                cmd="gitfararoni__subcmd__undo"
                ;;
            gitfararoni__subcmd__generate,completions)
                cmd="gitfararoni__subcmd__generate__subcmd__completions"
                ;;
            gitfararoni__subcmd__generate,help)
                cmd="gitfararoni__subcmd__generate__subcmd__help"
                ;;
            gitfararoni__subcmd__generate,man)
                cmd="gitfararoni__subcmd__generate__subcmd__man"
                ;;
            gitfararoni__subcmd__generate__subcmd__help,completions)
                cmd="gitfararoni__subcmd__generate__subcmd__help__subcmd__completions"
                ;;
            gitfararoni__subcmd__generate__subcmd__help,help)
                cmd="gitfararoni__subcmd__generate__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__generate__subcmd__help,man)
                cmd="gitfararoni__subcmd__generate__subcmd__help__subcmd__man"
                ;;
            gitfararoni__subcmd__guard,check)
                cmd="gitfararoni__subcmd__guard__subcmd__check"
                ;;
            gitfararoni__subcmd__guard,help)
                cmd="gitfararoni__subcmd__guard__subcmd__help"
                ;;
            gitfararoni__subcmd__guard,hook)
                cmd="gitfararoni__subcmd__guard__subcmd__hook"
                ;;
            gitfararoni__subcmd__guard,write)
                cmd="gitfararoni__subcmd__guard__subcmd__write"
                ;;
            gitfararoni__subcmd__guard__subcmd__help,check)
                cmd="gitfararoni__subcmd__guard__subcmd__help__subcmd__check"
                ;;
            gitfararoni__subcmd__guard__subcmd__help,help)
                cmd="gitfararoni__subcmd__guard__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__guard__subcmd__help,hook)
                cmd="gitfararoni__subcmd__guard__subcmd__help__subcmd__hook"
                ;;
            gitfararoni__subcmd__guard__subcmd__help,write)
                cmd="gitfararoni__subcmd__guard__subcmd__help__subcmd__write"
                ;;
            gitfararoni__subcmd__help,agent-replay)
                cmd="gitfararoni__subcmd__help__subcmd__agent__subcmd__replay"
                ;;
            gitfararoni__subcmd__help,ask)
                cmd="gitfararoni__subcmd__help__subcmd__ask"
                ;;
            gitfararoni__subcmd__help,completions)
                cmd="gitfararoni__subcmd__help__subcmd__completions"
                ;;
            gitfararoni__subcmd__help,config)
                cmd="gitfararoni__subcmd__help__subcmd__config"
                ;;
            gitfararoni__subcmd__help,distill)
                cmd="gitfararoni__subcmd__help__subcmd__distill"
                ;;
            gitfararoni__subcmd__help,doctor)
                cmd="gitfararoni__subcmd__help__subcmd__doctor"
                ;;
            gitfararoni__subcmd__help,generate)
                cmd="gitfararoni__subcmd__help__subcmd__generate"
                ;;
            gitfararoni__subcmd__help,guard)
                cmd="gitfararoni__subcmd__help__subcmd__guard"
                ;;
            gitfararoni__subcmd__help,help)
                cmd="gitfararoni__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__help,hook)
                cmd="gitfararoni__subcmd__help__subcmd__hook"
                ;;
            gitfararoni__subcmd__help,hooks)
                cmd="gitfararoni__subcmd__help__subcmd__hooks"
                ;;
            gitfararoni__subcmd__help,install-docs)
                cmd="gitfararoni__subcmd__help__subcmd__install__subcmd__docs"
                ;;
            gitfararoni__subcmd__help,models)
                cmd="gitfararoni__subcmd__help__subcmd__models"
                ;;
            gitfararoni__subcmd__help,parse-tool-calls)
                cmd="gitfararoni__subcmd__help__subcmd__parse__subcmd__tool__subcmd__calls"
                ;;
            gitfararoni__subcmd__help,run)
                cmd="gitfararoni__subcmd__help__subcmd__run"
                ;;
            gitfararoni__subcmd__help,saga)
                cmd="gitfararoni__subcmd__help__subcmd__saga"
                ;;
            gitfararoni__subcmd__help,session)
                cmd="gitfararoni__subcmd__help__subcmd__session"
                ;;
            gitfararoni__subcmd__help,shadow)
                cmd="gitfararoni__subcmd__help__subcmd__shadow"
                ;;
            gitfararoni__subcmd__help,undo)
                cmd="gitfararoni__subcmd__help__subcmd__undo"
                ;;
            gitfararoni__subcmd__help__subcmd__generate,completions)
                cmd="gitfararoni__subcmd__help__subcmd__generate__subcmd__completions"
                ;;
            gitfararoni__subcmd__help__subcmd__generate,man)
                cmd="gitfararoni__subcmd__help__subcmd__generate__subcmd__man"
                ;;
            gitfararoni__subcmd__help__subcmd__guard,check)
                cmd="gitfararoni__subcmd__help__subcmd__guard__subcmd__check"
                ;;
            gitfararoni__subcmd__help__subcmd__guard,hook)
                cmd="gitfararoni__subcmd__help__subcmd__guard__subcmd__hook"
                ;;
            gitfararoni__subcmd__help__subcmd__guard,write)
                cmd="gitfararoni__subcmd__help__subcmd__guard__subcmd__write"
                ;;
            gitfararoni__subcmd__help__subcmd__hooks,install)
                cmd="gitfararoni__subcmd__help__subcmd__hooks__subcmd__install"
                ;;
            gitfararoni__subcmd__help__subcmd__hooks,status)
                cmd="gitfararoni__subcmd__help__subcmd__hooks__subcmd__status"
                ;;
            gitfararoni__subcmd__help__subcmd__hooks,uninstall)
                cmd="gitfararoni__subcmd__help__subcmd__hooks__subcmd__uninstall"
                ;;
            gitfararoni__subcmd__help__subcmd__saga,abort)
                cmd="gitfararoni__subcmd__help__subcmd__saga__subcmd__abort"
                ;;
            gitfararoni__subcmd__help__subcmd__saga,finish)
                cmd="gitfararoni__subcmd__help__subcmd__saga__subcmd__finish"
                ;;
            gitfararoni__subcmd__help__subcmd__saga,list)
                cmd="gitfararoni__subcmd__help__subcmd__saga__subcmd__list"
                ;;
            gitfararoni__subcmd__help__subcmd__saga,start)
                cmd="gitfararoni__subcmd__help__subcmd__saga__subcmd__start"
                ;;
            gitfararoni__subcmd__help__subcmd__saga,status)
                cmd="gitfararoni__subcmd__help__subcmd__saga__subcmd__status"
                ;;
            gitfararoni__subcmd__help__subcmd__session,list)
                cmd="gitfararoni__subcmd__help__subcmd__session__subcmd__list"
                ;;
            gitfararoni__subcmd__help__subcmd__session,show)
                cmd="gitfararoni__subcmd__help__subcmd__session__subcmd__show"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,diff)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__diff"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,list)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__list"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,prune)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__prune"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,restore)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__restore"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,show)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__show"
                ;;
            gitfararoni__subcmd__help__subcmd__shadow,snapshot)
                cmd="gitfararoni__subcmd__help__subcmd__shadow__subcmd__snapshot"
                ;;
            gitfararoni__subcmd__hooks,help)
                cmd="gitfararoni__subcmd__hooks__subcmd__help"
                ;;
            gitfararoni__subcmd__hooks,install)
                cmd="gitfararoni__subcmd__hooks__subcmd__install"
                ;;
            gitfararoni__subcmd__hooks,status)
                cmd="gitfararoni__subcmd__hooks__subcmd__status"
                ;;
            gitfararoni__subcmd__hooks,uninstall)
                cmd="gitfararoni__subcmd__hooks__subcmd__uninstall"
                ;;
            gitfararoni__subcmd__hooks__subcmd__help,help)
                cmd="gitfararoni__subcmd__hooks__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__hooks__subcmd__help,install)
                cmd="gitfararoni__subcmd__hooks__subcmd__help__subcmd__install"
                ;;
            gitfararoni__subcmd__hooks__subcmd__help,status)
                cmd="gitfararoni__subcmd__hooks__subcmd__help__subcmd__status"
                ;;
            gitfararoni__subcmd__hooks__subcmd__help,uninstall)
                cmd="gitfararoni__subcmd__hooks__subcmd__help__subcmd__uninstall"
                ;;
            gitfararoni__subcmd__saga,abort)
                cmd="gitfararoni__subcmd__saga__subcmd__abort"
                ;;
            gitfararoni__subcmd__saga,finish)
                cmd="gitfararoni__subcmd__saga__subcmd__finish"
                ;;
            gitfararoni__subcmd__saga,help)
                cmd="gitfararoni__subcmd__saga__subcmd__help"
                ;;
            gitfararoni__subcmd__saga,list)
                cmd="gitfararoni__subcmd__saga__subcmd__list"
                ;;
            gitfararoni__subcmd__saga,start)
                cmd="gitfararoni__subcmd__saga__subcmd__start"
                ;;
            gitfararoni__subcmd__saga,status)
                cmd="gitfararoni__subcmd__saga__subcmd__status"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,abort)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__abort"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,finish)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__finish"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,help)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,list)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__list"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,start)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__start"
                ;;
            gitfararoni__subcmd__saga__subcmd__help,status)
                cmd="gitfararoni__subcmd__saga__subcmd__help__subcmd__status"
                ;;
            gitfararoni__subcmd__session,help)
                cmd="gitfararoni__subcmd__session__subcmd__help"
                ;;
            gitfararoni__subcmd__session,list)
                cmd="gitfararoni__subcmd__session__subcmd__list"
                ;;
            gitfararoni__subcmd__session,show)
                cmd="gitfararoni__subcmd__session__subcmd__show"
                ;;
            gitfararoni__subcmd__session__subcmd__help,help)
                cmd="gitfararoni__subcmd__session__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__session__subcmd__help,list)
                cmd="gitfararoni__subcmd__session__subcmd__help__subcmd__list"
                ;;
            gitfararoni__subcmd__session__subcmd__help,show)
                cmd="gitfararoni__subcmd__session__subcmd__help__subcmd__show"
                ;;
            gitfararoni__subcmd__shadow,diff)
                cmd="gitfararoni__subcmd__shadow__subcmd__diff"
                ;;
            gitfararoni__subcmd__shadow,help)
                cmd="gitfararoni__subcmd__shadow__subcmd__help"
                ;;
            gitfararoni__subcmd__shadow,list)
                cmd="gitfararoni__subcmd__shadow__subcmd__list"
                ;;
            gitfararoni__subcmd__shadow,prune)
                cmd="gitfararoni__subcmd__shadow__subcmd__prune"
                ;;
            gitfararoni__subcmd__shadow,restore)
                cmd="gitfararoni__subcmd__shadow__subcmd__restore"
                ;;
            gitfararoni__subcmd__shadow,show)
                cmd="gitfararoni__subcmd__shadow__subcmd__show"
                ;;
            gitfararoni__subcmd__shadow,snapshot)
                cmd="gitfararoni__subcmd__shadow__subcmd__snapshot"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,diff)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__diff"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,help)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__help"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,list)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__list"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,prune)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__prune"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,restore)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__restore"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,show)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__show"
                ;;
            gitfararoni__subcmd__shadow__subcmd__help,snapshot)
                cmd="gitfararoni__subcmd__shadow__subcmd__help__subcmd__snapshot"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        gitfararoni)
            opts="-q -h -V --quiet --help --version ask guard shadow saga undo run distill session hooks config doctor models install-docs completions hook parse-tool-calls generate agent-replay help"
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
        gitfararoni__subcmd__agent__subcmd__replay)
            opts="-v -q -h -V --script --requests --base-url --level --json --verbose --show-thinking --yes --quiet --help --version"
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
        gitfararoni__subcmd__ask)
            opts="-v -y -q -h -V --explain --json --verbose --level --show-thinking --yes --quiet --help --version"
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
        gitfararoni__subcmd__completions)
            opts="-q -h -V --quiet --help --version bash elvish fish powershell zsh"
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
        gitfararoni__subcmd__config)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__distill)
            opts="-q -h -V --exit-code --quiet --help --version"
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
        gitfararoni__subcmd__doctor)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__generate)
            opts="-q -h -V --quiet --help --version man completions help"
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
        gitfararoni__subcmd__generate__subcmd__completions)
            opts="-q -h -V --quiet --help --version bash elvish fish powershell zsh"
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
        gitfararoni__subcmd__generate__subcmd__help)
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
        gitfararoni__subcmd__generate__subcmd__help__subcmd__completions)
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
        gitfararoni__subcmd__generate__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__generate__subcmd__help__subcmd__man)
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
        gitfararoni__subcmd__generate__subcmd__man)
            opts="-q -h -V --quiet --help --version"
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
        gitfararoni__subcmd__guard)
            opts="-q -h -V --quiet --help --version check write hook help"
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
        gitfararoni__subcmd__guard__subcmd__check)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__guard__subcmd__help)
            opts="check write hook help"
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
        gitfararoni__subcmd__guard__subcmd__help__subcmd__check)
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
        gitfararoni__subcmd__guard__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__guard__subcmd__help__subcmd__hook)
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
        gitfararoni__subcmd__guard__subcmd__help__subcmd__write)
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
        gitfararoni__subcmd__guard__subcmd__hook)
            opts="-q -h -V --agent --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "claude gemini codex cursor cline copilot" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitfararoni__subcmd__guard__subcmd__write)
            opts="-q -h -V --from --force --json --quiet --help --version"
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
        gitfararoni__subcmd__help)
            opts="ask guard shadow saga undo run distill session hooks config doctor models install-docs completions hook parse-tool-calls generate agent-replay help"
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
        gitfararoni__subcmd__help__subcmd__agent__subcmd__replay)
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
        gitfararoni__subcmd__help__subcmd__ask)
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
        gitfararoni__subcmd__help__subcmd__completions)
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
        gitfararoni__subcmd__help__subcmd__config)
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
        gitfararoni__subcmd__help__subcmd__distill)
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
        gitfararoni__subcmd__help__subcmd__doctor)
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
        gitfararoni__subcmd__help__subcmd__generate)
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
        gitfararoni__subcmd__help__subcmd__generate__subcmd__completions)
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
        gitfararoni__subcmd__help__subcmd__generate__subcmd__man)
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
        gitfararoni__subcmd__help__subcmd__guard)
            opts="check write hook"
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
        gitfararoni__subcmd__help__subcmd__guard__subcmd__check)
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
        gitfararoni__subcmd__help__subcmd__guard__subcmd__hook)
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
        gitfararoni__subcmd__help__subcmd__guard__subcmd__write)
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
        gitfararoni__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__help__subcmd__hook)
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
        gitfararoni__subcmd__help__subcmd__hooks)
            opts="install uninstall status"
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
        gitfararoni__subcmd__help__subcmd__hooks__subcmd__install)
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
        gitfararoni__subcmd__help__subcmd__hooks__subcmd__status)
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
        gitfararoni__subcmd__help__subcmd__hooks__subcmd__uninstall)
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
        gitfararoni__subcmd__help__subcmd__install__subcmd__docs)
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
        gitfararoni__subcmd__help__subcmd__models)
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
        gitfararoni__subcmd__help__subcmd__parse__subcmd__tool__subcmd__calls)
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
        gitfararoni__subcmd__help__subcmd__run)
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
        gitfararoni__subcmd__help__subcmd__saga)
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
        gitfararoni__subcmd__help__subcmd__saga__subcmd__abort)
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
        gitfararoni__subcmd__help__subcmd__saga__subcmd__finish)
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
        gitfararoni__subcmd__help__subcmd__saga__subcmd__list)
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
        gitfararoni__subcmd__help__subcmd__saga__subcmd__start)
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
        gitfararoni__subcmd__help__subcmd__saga__subcmd__status)
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
        gitfararoni__subcmd__help__subcmd__session)
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
        gitfararoni__subcmd__help__subcmd__session__subcmd__list)
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
        gitfararoni__subcmd__help__subcmd__session__subcmd__show)
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
        gitfararoni__subcmd__help__subcmd__shadow)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__diff)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__list)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__prune)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__restore)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__show)
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
        gitfararoni__subcmd__help__subcmd__shadow__subcmd__snapshot)
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
        gitfararoni__subcmd__help__subcmd__undo)
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
        gitfararoni__subcmd__hook)
            opts="-q -h -V --quiet --help --version pre-commit post-checkout"
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
        gitfararoni__subcmd__hooks)
            opts="-q -h -V --quiet --help --version install uninstall status help"
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
        gitfararoni__subcmd__hooks__subcmd__help)
            opts="install uninstall status help"
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
        gitfararoni__subcmd__hooks__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__hooks__subcmd__help__subcmd__install)
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
        gitfararoni__subcmd__hooks__subcmd__help__subcmd__status)
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
        gitfararoni__subcmd__hooks__subcmd__help__subcmd__uninstall)
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
        gitfararoni__subcmd__hooks__subcmd__install)
            opts="-q -h -V --agent --scope --json --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "claude gemini codex cursor cline copilot all" -- "${cur}"))
                    return 0
                    ;;
                --scope)
                    COMPREPLY=($(compgen -W "project user" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitfararoni__subcmd__hooks__subcmd__status)
            opts="-q -h -V --agent --scope --json --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "claude gemini codex cursor cline copilot all" -- "${cur}"))
                    return 0
                    ;;
                --scope)
                    COMPREPLY=($(compgen -W "project user" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitfararoni__subcmd__hooks__subcmd__uninstall)
            opts="-q -h -V --agent --scope --json --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "claude gemini codex cursor cline copilot all" -- "${cur}"))
                    return 0
                    ;;
                --scope)
                    COMPREPLY=($(compgen -W "project user" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitfararoni__subcmd__install__subcmd__docs)
            opts="-q -h -V --prefix --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --prefix)
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
        gitfararoni__subcmd__models)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__parse__subcmd__tool__subcmd__calls)
            opts="-q -h -V --quiet --help --version"
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
        gitfararoni__subcmd__run)
            opts="-q -h -V --net --no-net --session --quiet --help --version"
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
        gitfararoni__subcmd__saga)
            opts="-q -h -V --quiet --help --version start finish abort status list help"
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
        gitfararoni__subcmd__saga__subcmd__abort)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__saga__subcmd__finish)
            opts="-m -y -q -h -V --message --include-dirty --yes --json --quiet --help --version"
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
        gitfararoni__subcmd__saga__subcmd__help)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__abort)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__finish)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__list)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__start)
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
        gitfararoni__subcmd__saga__subcmd__help__subcmd__status)
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
        gitfararoni__subcmd__saga__subcmd__list)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__saga__subcmd__start)
            opts="-q -h -V --name --json --quiet --help --version"
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
        gitfararoni__subcmd__saga__subcmd__status)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__session)
            opts="-q -h -V --quiet --help --version list show help"
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
        gitfararoni__subcmd__session__subcmd__help)
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
        gitfararoni__subcmd__session__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__session__subcmd__help__subcmd__list)
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
        gitfararoni__subcmd__session__subcmd__help__subcmd__show)
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
        gitfararoni__subcmd__session__subcmd__list)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__session__subcmd__show)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__shadow)
            opts="-q -h -V --quiet --help --version list show diff restore snapshot prune help"
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
        gitfararoni__subcmd__shadow__subcmd__diff)
            opts="-q -h --version --quiet --help"
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
        gitfararoni__subcmd__shadow__subcmd__help)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__diff)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__help)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__list)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__prune)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__restore)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__show)
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
        gitfararoni__subcmd__shadow__subcmd__help__subcmd__snapshot)
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
        gitfararoni__subcmd__shadow__subcmd__list)
            opts="-q -h -V --json --quiet --help --version"
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
        gitfararoni__subcmd__shadow__subcmd__prune)
            opts="-q -h -V --keep --older-than --yes --json --quiet --help --version"
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
        gitfararoni__subcmd__shadow__subcmd__restore)
            opts="-y -q -h --version --yes --json --quiet --help"
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
        gitfararoni__subcmd__shadow__subcmd__show)
            opts="-q -h --version --quiet --help"
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
        gitfararoni__subcmd__shadow__subcmd__snapshot)
            opts="-q -h -V --session --json --quiet --help --version"
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
        gitfararoni__subcmd__undo)
            opts="-q -h -V --session --json --quiet --help --version"
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
    complete -F _gitfararoni -o nosort -o bashdefault -o default git-fararoni
else
    complete -F _gitfararoni -o bashdefault -o default git-fararoni
fi

# `git fararoni <TAB>`: git's completion (git-completion.bash) calls
# _git_fararoni with words/cword/cur set; complete as `git-fararoni`.
_git_fararoni() {
    local i start=-1
    for ((i = 1; i < ${#words[@]}; i++)); do
        if [[ ${words[i]} == fararoni ]]; then
            start=$i
            break
        fi
    done
    ((start < 0)) && return
    local COMP_WORDS=(git-fararoni "${words[@]:start+1}")
    local COMP_CWORD=$((cword - start))
    _gitfararoni git-fararoni "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}
