/**
 * The request bodies of Cairn's own {@code /v1} API as records: the one definition the server binds
 * (strictly: an unknown field is a 400) and the Java client sends. Field names are the API's
 * camelCase. An absent field that the API defines as empty (no tags, no user) is empty here; one
 * whose default a server library owns (a retrieve's {@code topK}, a memory's {@code confidence}) is
 * null, which the client leaves out of the JSON and the server replaces with its default, so a
 * default is written down once, where it is used.
 */
package dev.cairn.api.body;
