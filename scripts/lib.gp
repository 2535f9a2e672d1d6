# lib.gp - what the plot scripts share (loaded, not run): sq(S), S quoted
# for the shell, for every name that reaches one (system(), "< command"
# data); a name with a quote, a space or a '$' reaches it as it is.
# Each script finds this file with dir_(ARG0), the folder of its own path
# with a final '/' ("" for a bare name):
#   dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
#   load dir_(ARG0)."lib.gp"
sq_(s) = strstrt(s, "'") ? s[1:strstrt(s, "'") - 1]."'\\''".sq_(s[strstrt(s, "'") + 1:]) : s
sq(s) = "'".sq_(s)."'"
