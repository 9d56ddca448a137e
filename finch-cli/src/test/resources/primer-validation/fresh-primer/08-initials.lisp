(say (string-join (list-map (string-split "ada lovelace" " ")
                            (lambda ([w : string]) (string-upcase (string-slice w 0 1))))
                  ""))
