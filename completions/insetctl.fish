function __insetctl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetctl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __insetctl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetctl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __insetctl_parse_tokens -S
    set -l unparsed_tokens (__insetctl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'insetctl'
        __insetctl_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'status'
            __insetctl_parse_subcommand 0 'socket=' 'json' 'version' 'h/help'
        case 'devices'
            __insetctl_parse_subcommand 0 'socket=' 'json' 'version' 'h/help'
        case 'watch'
            __insetctl_parse_subcommand 0 'socket=' 'json' 'count=' 'version' 'h/help'
        case 'show'
            __insetctl_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'hide'
            __insetctl_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'toggle'
            __insetctl_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'rotate'
            __insetctl_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'simulate'
            __insetctl_parse_subcommand 1 'socket=' 'rect=' 'safe=' 'content-height=' 'wait=' 'json' 'version' 'h/help'
        case 'replay'
            __insetctl_parse_subcommand -r 1 'expect=' 'version' 'h/help'
        case 'wait'
            __insetctl_parse_subcommand -r 1 'socket=' 'timeout=' 'version' 'h/help'
        case 'events'
            __insetctl_parse_subcommand 0 'socket=' 'jsonl' 'count=' 'version' 'h/help'
        case 'mode'
            __insetctl_parse_subcommand 1 'socket=' 'version' 'h/help'
        case 'keys'
            __insetctl_parse_subcommand 0 'modifiers' 'version' 'h/help'
        case 'reload'
            __insetctl_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'help'
            __insetctl_parse_subcommand -r 1 'version'
        end
    end
end

function __insetctl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __insetctl_parse_subcommand -S -a positional_count
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

function __insetctl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __insetctl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__insetctl_tokens -p)
    if test -z "$(__insetctl_tokens -t)"
        set -l index (count (__insetctl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'insetctl' -f
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'status' -d 'Keyboard state, screen, mode and counts.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'devices' -d 'Input devices with their class and the reason for it.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'watch' -d 'Follow keyboard changes, devices, policy and rotate requests live.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'show' -d 'Show the on-screen keyboard (until the next focus change).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'hide' -d 'Hide the on-screen keyboard (until the next focus change).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'toggle' -d 'Show the keyboard if hidden, hide it if shown.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'rotate' -d 'Ask the shell to rotate the screen (insetd passes it to rotation subscribers).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'simulate' -d 'Register a temporary view and focus, blur or scroll it; print what a client would receive.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'replay' -d 'Replay a trace through insetd\'s core, with no hardware, socket or clock.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'wait' -d 'Wait until insetd\'s state meets every condition (for tests).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'events' -d 'Follow insetd\'s decisions live, each with its time and cause (for tests).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'mode' -d 'Show or set the keyboard mode: auto, always or never.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'keys' -d 'List the key names a hotkey (input.hotkeys) may use.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'reload' -d 'Reload insetd\'s configuration file; print what changed or what is wrong.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl status" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl status" json' -l 'json' -d 'Print the status object as one line of JSON (state, clients, views).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl status" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl devices" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl devices" json' -l 'json' -d 'Print a JSON array of objects (name, devnode, class, external, reason, ...).'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl devices" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl devices" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl watch" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl watch" json' -l 'json' -d 'Print the raw message stream, one JSON object per line.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl watch" count' -l 'count' -d 'Stop after this many messages.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl watch" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl show" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl show" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl hide" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl hide" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl hide" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl toggle" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl toggle" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl toggle" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl rotate" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl rotate" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl rotate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl simulate" -eq 1' -fka 'focus blur scroll'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" rect' -l 'rect' -d 'The rectangle (x,y,width,height) of the field to focus or to scroll to.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" safe' -l 'safe' -d 'Safe-area insets of the view (top,left,bottom,right).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" content-height' -l 'content-height' -d 'Content height of the view.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" wait' -l 'wait' -d 'How long to keep listening, in milliseconds.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" json' -l 'json' -d 'Print raw JSON messages.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl simulate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl replay" expect' -l 'expect' -d 'Recorded outputs (insetd --trace-output) to compare with.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl replay" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl wait" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl wait" timeout' -l 'timeout' -d 'Give up after this many seconds.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl wait" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl wait" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl events" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl events" jsonl' -l 'jsonl' -d 'Print one JSON object per line, as insetd sends it.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl events" count' -l 'count' -d 'Stop after this many lines.' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl events" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl mode" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_positional "insetctl mode" -eq 1' -fka 'auto always never'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl mode" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl mode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl keys" modifiers' -l 'modifiers' -d 'Only the modifier names.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl keys" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl keys" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl reload" socket' -l 'socket' -d 'insetd\'s socket (default: $INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, /run/insetd/insetd.sock).' -rfka ''
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl reload" version' -l 'version' -d 'Show the version.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl reload" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetctl' -n '__insetctl_should_offer_completions_for_flags_or_options "insetctl help" version' -l 'version' -d 'Show the version.'
