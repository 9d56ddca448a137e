[ 1 2 3 ] [ 4 5 6 ] [ 7 8 ] [ [ 1 ] [ 2 3 ] ] empty-list<int> 9 list-append map{ "a" 1 "b" 2 }map
{ name: "Ada" tags: [ 'x 'y ] nested: { ok: true } }
{"first name":"Ada","langs":["en","fr"],"n":-1.5e3,"nil":null}
