/*
 * kquantity.h - Kubernetes resource quantities ("1500m", "64Gi", "1e3").
 *
 * The serialization format of k8s.io/apimachinery pkg/api/resource
 * Quantity (quantity.go, the comment above type Quantity):
 *
 *	<quantity>        ::= <signedNumber><suffix>
 *	<number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 *	<signedNumber>    ::= <number> | <sign><number>
 *	<suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 *	<binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 *	<decimalSI>       ::= m | "" | k | M | G | T | P | E
 *	<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
 *
 * and "no quantity may represent a number greater than 2^63-1 in
 * magnitude".  A lone "E" is exa (10^18); "E" followed by a signed
 * number is an exponent, as in quantity.go's parser.
 */
#ifndef PLANNER_KQUANTITY_H
#define PLANNER_KQUANTITY_H

/*
 * Parses s (the whole string) into *out (cores for CPU, bytes for
 * memory).  0, or -1 with *why set to a static reason ("not a Kubernetes
 * quantity", "larger than 2^63-1").
 */
int kquantity_parse(const char *s, double *out, const char **why);

#endif
