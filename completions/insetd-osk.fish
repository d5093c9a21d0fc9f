function __insetd-osk_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetd-osk_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __insetd-osk_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetd-osk_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __insetd-osk_parse_tokens -S
    set -l unparsed_tokens (__insetd-osk_tokens -pc)
    switch $unparsed_tokens[1]
    case 'insetd-osk'
        __insetd-osk_parse_subcommand 0 'backend=' 'socket=' 'wvkbd-pid=' 'wvkbd-pidfile=' 'wvkbd-unit=' 'wvkbd-heights=' 'settle-ms=' 'keep-gnome-setting' 'verbose' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __insetd-osk_parse_subcommand -r 1 'version'
        end
    end
end

function __insetd-osk_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __insetd-osk_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __insetd-osk_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __insetd-osk_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__insetd-osk_tokens -p)
    if test -z "$(__insetd-osk_tokens -t)"
        set -l index (count (__insetd-osk_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'insetd-osk' -f
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" backend' -l 'backend' -d 'Which OSK to drive: squeekboard, wvkbd, kwin, gnome, or auto (the first one present).' -rfka 'squeekboard wvkbd kwin gnome auto'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" wvkbd-pid' -l 'wvkbd-pid' -d 'wvkbd\'s process id.' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" wvkbd-pidfile' -l 'wvkbd-pidfile' -d 'A file holding wvkbd\'s process id.' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" wvkbd-unit' -l 'wvkbd-unit' -d 'The systemd user unit running wvkbd (its main pid is used).' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" wvkbd-heights' -l 'wvkbd-heights' -d 'wvkbd\'s portrait,landscape heights when not read from its -H/-L.' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" settle-ms' -l 'settle-ms' -d 'How long the OSK must have been shown before a hide it was not asked for counts as its user\'s (sooner: it dropped the show, which is asked again). Default 500.' -rfka ''
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" keep-gnome-setting' -l 'keep-gnome-setting' -d 'Leave GNOME\'s screen-keyboard setting alone with squeekboard.'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" verbose' -l 'verbose' -d 'Log every show and hide.'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_positional "insetd-osk" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'insetd-osk' -n '__insetd-osk_should_offer_completions_for_flags_or_options "insetd-osk help" version' -l 'version' -d 'Show the version.'
