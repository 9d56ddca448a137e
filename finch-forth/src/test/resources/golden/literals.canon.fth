42 -7 31 1.5 -2000.0 1.0e9 +inf.0 -inf.0 "tab\tnew\nline \"q\" back\\slash nul\0 é€" "forth string"
"tight" true false unit 'sym
