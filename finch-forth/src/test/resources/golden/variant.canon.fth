7 variant<variant{none|some(int)},some> variant-get<some>
if-some 1 + int-to-string say else "none" say then
