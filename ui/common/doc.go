// Package common is what kedit's views share, and nothing else: the
// styles (Styles), the shared bindings (Binding, HelpKey, QuitKey, the
// scrolling keys) and the drawing of a view's help from them (FooterLine,
// HelpLines), the intents every view may answer with (HelpMsg, SayMsg,
// EditMsg ...) and Emit that returns one, the question on the bottom line
// (Prompt), and the drawing of server text once escaped (SafeList,
// DisplayValue, RenderObject, ErrorText).
//
// It imports no view, nor ui, nor kube: a view package imports it and
// model, and gets everything else it draws as values from the app
// (TestImportsPointOneWay).
package common
