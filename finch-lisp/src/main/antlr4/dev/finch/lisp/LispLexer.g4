/*
 * The tokens of the Finch Lisp frontend (decisions D8). S-expressions need no parser generator: the reader
 * (SyntaxReader) builds the datum tree from these tokens with one stack, after a scan has checked that every
 * delimiter is balanced; forms are recognised later, by the analyzer.
 */
lexer grammar LispLexer;

LPAREN  : '(' ;
RPAREN  : ')' ;
LBRACK  : '[' ;
RBRACK  : ']' ;
LBRACE  : '{' ;
RBRACE  : '}' ;
QUOTE   : '\'' ;
COLON   : ':' ;
STRING  : '"' ( '\\' . | ~["\\] )* '"' ;
FLOAT   : '-'? DIGIT+ '.' DIGIT+ EXPONENT? | '-'? DIGIT+ EXPONENT ;
INT     : '-'? DIGIT+ ;
KEYWORD : ':' SYM_CHAR+ ;
// A symbol may embed a braced part glued to it, so that type spellings such as record{a:int} or
// variant{none|some(int)} (and option<record{a:int}>) are one token.
SYMBOL  : SYM_START SYM_CHAR* ( BRACED SYM_CHAR* )* ;

COMMENT : ';' ~[\r\n]* -> skip ;
WS      : [ \t\r\n\f]+ -> skip ;
// Anything else is one bad token, reported as a parse diagnostic rather than a lexer console message.
BAD     : . ;

fragment DIGIT    : [0-9] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
fragment SYM_START: [a-zA-Z_!$%&*/<=>?^~+\-|#.] | '\u0080'..'\uFFFE' ;
fragment SYM_CHAR : SYM_START | [0-9:,@] ;
fragment BRACED   : '{' ( ~[{}] | BRACED )* '}' ;
