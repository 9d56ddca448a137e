(say (match-option (string-index-of "ab,cd" ",") (some i (int-to-string i)) (none "absent")))
