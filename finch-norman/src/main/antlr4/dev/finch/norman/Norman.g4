/*
 * The lexical and datum structure of µNorman (language reference, "Lexical structure"). No actions: the
 * Reader walks the parse tree into datums (Sx) and the Syntax class recognises the forms.
 */
grammar Norman;

program : datum* EOF ;

datum
    : '(' datum* ')'   # paren
    | '[' datum* ']'   # bracket
    | '\'' datum       # quote
    | STRING           # string
    | ATOM             # atom
    ;

STRING  : '"' ( '\\' . | ~["\\] )* '"' ;
COMMENT : ';' ~[\r\n]* -> skip ;
WS      : [ \t\r\n\f]+ -> skip ;
// Every other character joins a token that stops only at a bracket, a semicolon, whitespace or a quote.
ATOM    : ~[ \t\r\n\f()[\];"']+ ;
// Anything else (an unterminated string's opening quote) is one bad token, reported as a diagnostic.
BAD     : . ;
