42 -7 0x1F 1.5 -2.0e3 1e9 +inf.0 -inf.0
"tab\tnew\nline \"q\" back\\slash nul\0 \u00e9\u20ac"
s" forth string" s"tight" true false unit 'sym
