package eu.vpki.terraform.hcl;

import eu.vpki.terraform.hcl.Ast.BinaryOp;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.ForDirective;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.FunctionCall;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.IfDirective;
import eu.vpki.terraform.hcl.Ast.Index;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Splat;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.Tuple;
import eu.vpki.terraform.hcl.Ast.UnaryOp;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HclParserTest {

    @Test
    void bodiesWithCommentsLabelsAndOneLineBlocks() {
        Body body = HclParser.parseConfig("""
                # comment
                // another
                /* block
                   comment */
                resource "aws_vpc" "this" { # trailing
                  cidr_block = "10.0.0.0/16" // trailing
                  tags       = { Name = "x" }
                  lifecycle { ignore_changes = [tags] }
                }
                locals {
                  a-b = 1
                }
                """);
        Block vpc = body.blocks("resource").get(0);
        assertThat(vpc.labels()).containsExactly("aws_vpc", "this");
        assertThat(((Template) vpc.body().expr("cidr_block").orElseThrow()).constant()).hasValue("10.0.0.0/16");
        assertThat(vpc.body().blocks("lifecycle")).hasSize(1);
        assertThat(body.blocks("locals").get(0).body().attribute("a-b")).isPresent();
    }

    @Test
    void newlinesEndAttributesButNotBracketedExpressions() {
        Body body = HclParser.parseConfig("""
                a = [
                  1,
                  2,
                ]
                b = f(
                  x,
                  y
                )
                c = 1
                """);
        assertThat(((Tuple) body.expr("a").orElseThrow()).items()).hasSize(2);
        assertThat(((FunctionCall) body.expr("b").orElseThrow()).args()).hasSize(2);
        assertThat(body.attributes()).extracting(Ast.Attribute::name).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> HclParser.parseConfig("a = 1 b = 2\n")).isInstanceOf(HclParseException.class)
                .hasMessageContaining("<input>:1");
    }

    @Test
    void operatorPrecedenceAndConditionals() {
        Ast.Expr e = HclParser.parseExpression("!a || b && c == 1 + 2 * 3 ? -x : y");
        Conditional c = (Conditional) e;
        BinaryOp or = (BinaryOp) c.condition();
        assertThat(or.op()).isEqualTo("||");
        assertThat(or.left()).isInstanceOf(UnaryOp.class);
        BinaryOp and = (BinaryOp) or.right();
        assertThat(and.op()).isEqualTo("&&");
        BinaryOp eq = (BinaryOp) and.right();
        BinaryOp plus = (BinaryOp) eq.right();
        assertThat(plus.op()).isEqualTo("+");
        assertThat(((BinaryOp) plus.right()).op()).isEqualTo("*");
        assertThat(c.then()).isInstanceOf(UnaryOp.class);
        assertThat(((BinaryOp) HclParser.parseExpression("a >= 1")).op()).isEqualTo(">=");
    }

    @Test
    void traversalsSplatsAndCalls() {
        ScopeTraversal t = (ScopeTraversal) HclParser.parseExpression("module.region[\"eu-west-1\"].vpc_id");
        assertThat(t.root()).isEqualTo("module");
        assertThat(t.steps()).hasSize(3);
        assertThat(t.steps().get(1)).isInstanceOf(Index.class);
        assertThat(((GetAttr) t.steps().get(2)).name()).isEqualTo("vpc_id");

        Splat s = (Splat) HclParser.parseExpression("aws_subnet.private[*].id");
        assertThat(((ScopeTraversal) s.source()).steps()).hasSize(1);
        assertThat(s.eachSteps()).containsExactly(new GetAttr("id"));

        FunctionCall merge = (FunctionCall) HclParser.parseExpression("merge([for x in y : {a = x}]...)");
        assertThat(merge.expandFinal()).isTrue();
        FunctionCall provider = (FunctionCall) HclParser.parseExpression("provider::aws::arn_parse(x)");
        assertThat(provider.name()).isEqualTo("provider::aws::arn_parse");
        assertThat(((Literal) HclParser.parseExpression("1.5e3")).value()).isEqualTo(new BigDecimal("1.5e3"));
    }

    @Test
    void forExpressionsAndObjects() {
        ForExpr f = (ForExpr) HclParser.parseExpression("""
                {
                  for k, v in var.regions : k => {
                    a = v.x
                    "b" : 2,
                    (local.c) = 3
                  } if k != "x"
                }""");
        assertThat(f.keyVar()).isEqualTo("k");
        assertThat(f.valueVar()).isEqualTo("v");
        assertThat(f.condition()).isInstanceOf(BinaryOp.class);
        ObjectCons o = (ObjectCons) f.valueExpr();
        assertThat(o.items()).hasSize(3);
        assertThat(o.items().get(0).constantKey()).hasValue("a");
        assertThat(o.items().get(1).constantKey()).hasValue("b");
        assertThat(o.items().get(2).constantKey()).isEmpty();

        ForExpr grouping = (ForExpr) HclParser.parseExpression("{ for x in xs : x.k => x... }");
        assertThat(grouping.grouping()).isTrue();
        ForExpr list = (ForExpr) HclParser.parseExpression("[for i in range(3) : i * 2]");
        assertThat(list.keyExpr()).isNull();
    }

    @Test
    void quotedTemplatesWithEscapesAndNestedInterpolation() {
        Template t = (Template) HclParser.parseExpression("\"a\\\"b\\n$${lit} %%{lit} ${f(\"x${y}\")}\\u00e9\"");
        assertThat(t.parts()).hasSize(3);
        assertThat(((LiteralText) t.parts().get(0)).text()).isEqualTo("a\"b\n${lit} %{lit} ");
        FunctionCall f = (FunctionCall) ((Interpolation) t.parts().get(1)).expr();
        assertThat(((Template) f.args().get(0)).parts()).hasSize(2);
        assertThat(((LiteralText) t.parts().get(2)).text()).isEqualTo("é");
        assertThat(((Template) HclParser.parseExpression("\"${x}\"")).unwrapped()).isPresent();
    }

    @Test
    void heredocsAndDirectivesWithStripMarkers() {
        Body body = HclParser.parseConfig("""
                description = <<-EOT
                  one ${var.x}
                  %{ if var.y ~}
                  yes
                  %{~ else ~}
                  no
                  %{~ endif }
                  EOT
                after = 1
                """);
        Template t = (Template) body.expr("description").orElseThrow();
        IfDirective i = (IfDirective) t.parts().stream().filter(IfDirective.class::isInstance).findFirst().orElseThrow();
        assertThat(((LiteralText) i.then().get(0)).text()).isEqualTo("yes");
        assertThat(((LiteralText) i.otherwise().get(0)).text()).isEqualTo("no");
        assertThat(body.expr("after")).isPresent();
    }

    @Test
    void templateFilesWithForDirectives() {
        Template t = HclParser.parseTemplate("""
                #!/bin/bash
                echo "$HOME $(date)" ${x}
                %{ for key, value in environment ~}
                ${key}=${value}
                %{ endfor ~}
                done
                """);
        ForDirective f = (ForDirective) t.parts().stream().filter(ForDirective.class::isInstance).findFirst().orElseThrow();
        assertThat(f.keyVar()).isEqualTo("key");
        assertThat(f.valueVar()).isEqualTo("value");
        assertThat(f.body()).hasSize(4);
        assertThat(((LiteralText) f.body().get(1)).text()).isEqualTo("=");
        assertThat(((LiteralText) t.parts().get(t.parts().size() - 1)).text()).isEqualTo("done\n");
    }

    @Test
    void reportsMalformedInput() {
        for (String bad : List.of("a = {\n", "resource \"x\" {\n", "a = \"unterminated\n", "a = [1 2]\n",
                "a = <<EOT\nno end\n", "a = \"%{ if x }no endif\"\n", "a = \"%{ endfor }\"\n")) {
            assertThatThrownBy(() -> HclParser.parseConfig(bad)).as(bad).isInstanceOf(HclParseException.class);
        }
    }
}
