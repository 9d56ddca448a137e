{ name: "Ada" age: 36 } :> person
person "name" record-get if-some say else "?" say then
" is " say
person "age" record-get if-some int-to-string say else "?" say then
