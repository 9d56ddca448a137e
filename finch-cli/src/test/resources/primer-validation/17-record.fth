{ name: "Ada" age: 36 } :> p
p "name" record-get if-some say else then
" is " say
p "age" record-get if-some int-to-string say else then
