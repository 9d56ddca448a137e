[3, 17, 5, 9] 0 [: ( int int -- int ) max ;] list-fold int-to-string say
