function __insetd-testbed_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetd-testbed_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __insetd-testbed_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __insetd-testbed_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __insetd-testbed_parse_tokens -S
    set -l unparsed_tokens (__insetd-testbed_tokens -pc)
    switch $unparsed_tokens[1]
    case 'insetd-testbed'
        __insetd-testbed_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'run'
            __insetd-testbed_parse_subcommand -r 1 'device=+' 'recording=+' 'version' 'h/help'
        case 'plug'
            __insetd-testbed_parse_subcommand 1 'name=' 'recording=' 'version' 'h/help'
        case 'unplug'
            __insetd-testbed_parse_subcommand 1 'version' 'h/help'
        case 'press'
            __insetd-testbed_parse_subcommand 1 'device=' 'version' 'h/help'
        case 'tablet'
            __insetd-testbed_parse_subcommand 1 'device=' 'version' 'h/help'
        case 'list'
            __insetd-testbed_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __insetd-testbed_parse_subcommand -r 1 'version'
        end
    end
end

function __insetd-testbed_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __insetd-testbed_parse_subcommand -S -a positional_count
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

function __insetd-testbed_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __insetd-testbed_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__insetd-testbed_tokens -p)
    if test -z "$(__insetd-testbed_tokens -t)"
        set -l index (count (__insetd-testbed_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'insetd-testbed' -f
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'run' -d 'Run COMMAND beside emulated devices; exit with its status.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'plug' -d 'Plug in a device: udev announces it and readers can open it.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'unplug' -d 'Unplug a device by name: udev announces its removal.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'press' -d 'Press keys together and release them (LEFTMETA+K), on the first keyboard that has them.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'tablet' -d 'Fold into tablet mode (on) or back (off) with the tablet switch.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'list' -d 'Plugged devices: name, kind, node (and a switch\'s position).'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed run"' -l 'device' -d 'Plug a device before COMMAND starts: KIND or KIND:NAME (repeatable).' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed run"' -l 'recording' -d 'Plug a device recorded with umockdev-record (repeatable).' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed run" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed plug" name' -l 'name' -d 'The name to unplug it by (default: the kind, then KIND-2, ...).' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed plug" recording' -l 'recording' -d 'Plug a device recorded with umockdev-record instead of a kind.' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed plug" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed plug" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed unplug" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed unplug" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed press" device' -l 'device' -d 'The device to type on (default: the first plugged that has the keys).' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed press" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed press" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_positional "insetd-testbed tablet" -eq 1' -fka 'on off'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed tablet" device' -l 'device' -d 'The tablet switch (default: the first plugged).' -rfka ''
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed tablet" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed tablet" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed list" version' -l 'version' -d 'Show the version.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'insetd-testbed' -n '__insetd-testbed_should_offer_completions_for_flags_or_options "insetd-testbed help" version' -l 'version' -d 'Show the version.'
